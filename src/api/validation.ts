import { Ajv, type AnySchema, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { FirstUseCompilation } from './first-use-compilation.ts';

/**
 * What Fastify's own compiler uses, minus the two choices made per part below, plus `verbose`: a
 * refused value's error carries its schema, which names the literals of a choice
 * (validation-messages.ts).
 */
const COMMON: Options = { useDefaults: true, allErrors: false, addUsedSchema: false, verbose: true };

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

/**
 * A validator of one body part checked on its own (an order batch's items, so that one malformed
 * item fails alone), with the body rules above; its `errors` after a failed call are ajv's.
 */
export function compileBodyPart(schema: AnySchema): ReturnType<Ajv['compile']> {
  return compiledOnce('body', schema, () => validators.body.compile(closedObjects(schema)));
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

/** The instants a `date-time` may name: years 0001 to 9999 in UTC, what the store's timestamps hold. */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');

function withFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv);
  // RFC 3339 allows year 0000, and an offset can carry 9999-12-31 into year 10000: both reached
  // PostgreSQL as a 500 ("date/time field value out of range"). Out of range is a 400.
  const rfc3339 = ajv.formats['date-time'] as { validate: (text: string) => boolean };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => {
      if (!rfc3339.validate(text)) return false;
      const ms = Date.parse(text);
      return ms >= EARLIEST_MS && ms <= LATEST_MS;
    },
  });
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
