import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { TemplateIdParams, TemplateInputSchema, TemplatePatchSchema, TemplateSchema } from '../../contract/admin.ts';
import { errorResponses } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';

const meta = (summary: string) => ({ tags: ['admin'], summary, security: [{ bearer: [] }] });

/** EXTENSIONS.md section 13: templates that publish one price market per period into their series event. */
export function registerTemplateAdminRoutes(api: TypedApp, ctx: AppContext): void {
  api.post('/admin/templates', {
    config: { auth: 'admin' },
    schema: { ...meta('Create a template and its series event'), body: TemplateInputSchema, response: { 201: TemplateSchema, ...errorResponses(400, 401, 409) } },
  }, async (request, reply) => {
    const template = await ctx.templates.create(request.body);
    return reply.code(201).send(template);
  });

  api.get('/admin/templates', {
    config: { auth: 'admin' },
    schema: { ...meta('Every template, oldest first'), response: { 200: Type.Array(TemplateSchema), ...errorResponses(401) } },
  }, async () => ctx.templates.list());

  api.patch('/admin/templates/:templateId', {
    config: { auth: 'admin' },
    schema: { ...meta('Enable, disable or reshape the future markets of a template'), params: TemplateIdParams, body: TemplatePatchSchema, response: { 200: TemplateSchema, ...errorResponses(400, 401, 404) } },
  }, async (request) => ctx.templates.patch(request.params.templateId, request.body));
}
