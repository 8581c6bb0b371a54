import { randomUUID } from 'node:crypto';
import { bearer, createApiKey, signedRequest, signIn, type ApiCredentials } from './auth-client.ts';
import { get, request, type JsonResponse } from './http.ts';
import type { TestServer } from './server.ts';

/** The GET routes of a server's /openapi.json, called as each expects its caller: for audits of every route's parameters. */
export interface Parameter { name: string; in: 'query' | 'path'; required?: boolean; schema: Record<string, any> }
export interface Operation { path: string; parameters: Parameter[]; security?: Array<Record<string, string[]>> }

export const isNumeric = (schema: Record<string, any>) => schema.type === 'integer' || schema.type === 'number';

/** The values a parameter takes when it is a choice (an enum, or a union of literals), else undefined. */
export function choicesOf(schema: Record<string, any>): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  const branches: Record<string, any>[] | undefined = schema.anyOf;
  if (!branches?.every((b) => b.enum || b.const !== undefined)) return undefined;
  return branches.flatMap((b) => b.enum ?? [b.const]);
}

/** A value the parameter's schema accepts, so that only the parameter under test is wrong. */
export function validValue(parameter: Parameter): string {
  const schema = parameter.schema;
  if (isNumeric(schema)) return String(schema.minimum ?? 1);
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
  const choices = choicesOf(schema);
  if (choices) return String(choices[0]);
  if (schema.pattern === '^0x[0-9a-fA-F]{40}$') return `0x${'1'.repeat(40)}`;
  if (schema.pattern?.startsWith('^[0-9]')) return '1';
  if (schema.pattern === '^[A-Z0-9]{2,10}/[A-Z0-9]{2,10}$') return 'BTC/USD';
  if (schema.type === 'boolean') return 'false';
  return 'x';
}

export interface OpenApiRoutes {
  operations: Operation[];
  /** GET as the route expects its caller: admin, a signed request, a session, or nobody. */
  call(path: string, security: Operation['security']): Promise<JsonResponse>;
  /** The route with its path parameters and required query parameters valid, plus `extra`. */
  url(operation: Operation, extra: Record<string, string>): string;
}

/** Reads the server's GET routes and signs a user in to call the ones that need one. */
export async function openApiRoutes(server: TestServer): Promise<OpenApiRoutes> {
  const { token } = await signIn(server);
  const creds: ApiCredentials = await createApiKey(server, token);
  const doc = (await get(`${server.url}/openapi.json`)).body;
  const operations: Operation[] = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, methods]) =>
    methods.get ? [{ path, parameters: methods.get.parameters ?? [], security: methods.get.security }] : []);
  return {
    operations,
    call(path, security) {
      if (path.startsWith('/api/v1/admin/')) return get(`${server.url}${path}`, server.adminHeaders);
      if (security?.some((s) => 'apiKey' in s)) return signedRequest(server, creds, 'GET', path.slice('/api/v1'.length));
      if (security?.some((s) => 'bearer' in s)) return request('GET', `${server.url}${path}`, { headers: bearer(token) });
      return get(`${server.url}${path}`);
    },
    url(operation, extra) {
      const values = new Map(operation.parameters.filter((p) => p.in === 'path' || p.required).map((p) => [p.name, validValue(p)]));
      for (const [name, value] of Object.entries(extra)) values.set(name, value);
      const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values.get(name)!));
      const query = operation.parameters.filter((p) => p.in === 'query' && values.has(p.name)).map((p) => `${p.name}=${encodeURIComponent(values.get(p.name)!)}`);
      return query.length ? `${path}?${query.join('&')}` : path;
    },
  };
}
