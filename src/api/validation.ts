import { Ajv, type AnySchema, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { FirstUseCompilation } from './first-use-compilation.ts';

/** What Fastify's own compiler uses, minus the two choices made per part below. */
const COMMON: Options = { useDefaults: true, allErrors: false, addUsedSchema: false };

/**
 * The request validators and response serializers of every route, compiled on first use (see
 * FirstUseCompilation), once per process: a process that runs several servers (the test suites,
 * a cluster's nodes in one test) compiles each schema once, not once per server (about 2 s of CPU
 * a server). Two validators, one per kind of input (Fastify's one ajv would apply one set of
 * options to all):
 * - bodies are JSON, so their types are exact: no coercion (`{"amount": 1000}` for a string field
 *   is 400) and no silent stripping: a property the schema does not declare is 400, in every body
 *   schema and at every depth (objects that do not say otherwise get `additionalProperties: false`);
 * - query strings, path parameters and headers are text, so they keep coercion to the schema's
 *   types (and single values to arrays), defaults, and dropping of undeclared parameters.
 */
export function registerCompilers(app: FastifyInstance): void {
  const compilation = new FirstUseCompilation(app);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    compilation.wrap(() => (httpPart === 'body'
      ? compiledOnce('body', schema, () => validators.body.compile(closedObjects(schema)))
      : compiledOnce('text', schema, () => validators.text.compile(schema as AnySchema)))));
  // Fastify's own serializer compiler, minus the shared schemas this app does not use.
  app.setSerializerCompiler(({ schema }) => compilation.wrap(() => compiledOnce('response', schema, () => fastJsonStringify(schema as object))));
}

const validators = {
  body: withFormats(new Ajv({ ...COMMON, coerceTypes: false, removeAdditional: false })),
  // strictNumbers off, against its name: with it on (ajv's default), a text "Infinity" or "1e309"
  // is coerced to Infinity and then skips minimum and maximum, which ajv checks on finite numbers
  // only (it reached the database: a 500). Off, Infinity fails every maximum, and every numeric
  // parameter has one (test/api/query-bounds.test.ts).
  text: withFormats(new Ajv({ ...COMMON, coerceTypes: 'array', removeAdditional: true, strictNumbers: false })),
};

/** The process's compiled functions, by kind and schema text (each server builds its own schema objects). */
const compiled = new Map<string, (...args: never[]) => unknown>();

function compiledOnce<F extends (...args: never[]) => unknown>(kind: 'body' | 'text' | 'response', schema: unknown, compile: () => F): F {
  const key = `${kind} ${JSON.stringify(schema)}`;
  let found = compiled.get(key);
  if (found === undefined) {
    found = compile();
    compiled.set(key, found);
  }
  return found as F;
}

function withFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv);
  return ajv;
}

/**
 * A copy of the schema in which every object schema with declared `properties` and no
 * `additionalProperties` of its own refuses undeclared ones. Schemas that say
 * `additionalProperties: true` (the order batch, whose items are checked one by one) keep it.
 */
export function closedObjects(schema: unknown): AnySchema {
  if (Array.isArray(schema)) return schema.map(closedObjects) as AnySchema;
  if (typeof schema !== 'object' || schema === null) return schema as AnySchema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === 'properties' || key === 'patternProperties' || key === '$defs'
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, closedObjects(child)]))
      : closedObjects(value);
  }
  if (copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy as AnySchema;
}
