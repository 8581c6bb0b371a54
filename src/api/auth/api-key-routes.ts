import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../../contract/errors.ts';
import { ApiKeyCredentialsSchema, ApiKeyParams, ApiKeySummarySchema } from '../../contract/auth.ts';
import { errorResponses } from '../../contract/common.ts';
import type { TypedApp } from '../typed-app.ts';
import { requireCaller } from './caller.ts';

/** Creating, listing and revoking API keys (EXTENSIONS.md section 2). */
export function registerApiKeyRoutes(api: TypedApp, ctx: AppContext): void {
  const { apiKeys } = ctx.identity;

  api.post('/auth/api-keys', {
    config: { auth: 'jwt', journalReads: 'none' },
    schema: {
      tags: ['auth'],
      summary: 'Create an API key; the secret and passphrase are shown only in this response (at most API_KEYS_PER_USER unrevoked keys, else 400)',
      security: [{ bearer: [] }],
      response: { 201: ApiKeyCredentialsSchema, ...errorResponses(400, 401) },
    },
  }, async (request, reply) => {
    const credentials = await apiKeys.create(requireCaller(request).userId);
    return reply.code(201).send(credentials);
  });

  api.get('/auth/api-keys', {
    config: { auth: 'jwtOrApiKey', journalReads: 'none' },
    schema: {
      tags: ['auth'],
      summary: "The caller's unrevoked API keys",
      security: [{ bearer: [] }, { apiKey: [] }],
      response: { 200: Type.Array(ApiKeySummarySchema), ...errorResponses(401) },
    },
  }, async (request) => {
    const keys = await apiKeys.list(requireCaller(request).userId);
    return keys.map((key) => ({ apiKey: key.apiKey, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null }));
  });

  api.delete('/auth/api-keys/:apiKey', {
    config: { auth: 'jwtOrApiKey', journalReads: 'none' },
    schema: {
      tags: ['auth'],
      summary: 'Revoke one of the caller\'s API keys; it stops working at once',
      security: [{ bearer: [] }, { apiKey: [] }],
      params: ApiKeyParams,
      response: { 204: Type.Null({ description: 'revoked' }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => {
    const outcome = await apiKeys.revoke(requireCaller(request).userId, request.params.apiKey.toLowerCase());
    if (outcome === 'not-owner') throw forbidden('this API key belongs to another user');
    if (outcome === 'not-found') throw notFound('API key');
    return reply.code(204).send(null);
  });
}
