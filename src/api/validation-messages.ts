import type { ErrorObject } from 'ajv';

/**
 * Fastify's `schemaErrorFormatter`: ajv's errors of a refused request as one message that says
 * what would pass. ajv stops at the first failing keyword, except that an `anyOf` reports each
 * branch's error before its own: a choice of literals (TypeBox's unions) came out as "must be
 * equal to constant" once a branch and "must match a schema in anyOf"; it is "must be one of 1H,
 * 6H, …" now, as an `enum` is (whose own message names no value), and an undeclared property of a
 * body is named. Needs ajv's `verbose` (src/api/validation.ts).
 */
export function formatValidationErrors(errors: ErrorObject[], part: string): Error {
  const choice = literalChoice(errors);
  if (choice) return new Error(`${part}${choice.instancePath} must be one of ${choice.values.join(', ')}`);
  return new Error(withoutNullBranch(errors).map((e) => `${part}${e.instancePath} ${describe(e)}`).join(', '));
}

/**
 * An optional body is a union with null (a request without one is validated as null): a body that
 * was sent and fails said "must be >= 5000, body must be null, body must match a schema in anyOf".
 * The value was not null, so the null branch and the union's own error say nothing: the other
 * branch's errors are what would pass.
 */
function withoutNullBranch(errors: ErrorObject[]): ErrorObject[] {
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  const nullBranch = anyOf && errors.find((e) => e.keyword === 'type' && e.params.type === 'null' && e.instancePath === anyOf.instancePath);
  if (!anyOf || !nullBranch || errors.length <= 2) return errors;
  return errors.filter((e) => e !== anyOf && e !== nullBranch);
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'enum') return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  if (error.keyword === 'additionalProperties') return `must NOT have the additional property "${String(error.params.additionalProperty)}"`;
  return error.message ?? 'is invalid';
}

/**
 * An anyOf whose every branch is a literal at its own place: the values it allows. A branch fails
 * on its `const`, or first on its `type` (a string where the literals are numbers): the validators
 * are verbose, so each error carries the branch's schema.
 */
function literalChoice(errors: ErrorObject[]): { instancePath: string; values: unknown[] } | undefined {
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  if (!anyOf) return undefined;
  const branches = errors.filter((e) => e !== anyOf);
  const literal = (e: ErrorObject) => e.instancePath === anyOf.instancePath && (e.parentSchema as { const?: unknown } | undefined)?.const !== undefined;
  if (branches.length === 0 || !branches.every(literal)) return undefined;
  // A branch may report both its type and its const.
  return { instancePath: anyOf.instancePath, values: [...new Set(branches.map((e) => (e.parentSchema as { const: unknown }).const))] };
}
