import type { ErrorObject } from 'ajv';

/**
 * Fastify's `schemaErrorFormatter`: ajv's errors of a refused request as one message that says
 * what would pass. ajv stops at the first failing keyword, except that an `anyOf` reports each
 * branch's error before its own: a choice of literals (TypeBox's unions) came out as "must be
 * equal to constant" once a branch and "must match a schema in anyOf"; it is "must be one of 1H,
 * 6H, …" now, as an `enum` is (whose own message names no value), and an undeclared property of a
 * body is named.
 */
export function formatValidationErrors(errors: ErrorObject[], part: string): Error {
  const choice = literalChoice(errors);
  if (choice) return new Error(`${part}${choice.instancePath} must be one of ${choice.values.join(', ')}`);
  return new Error(errors.map((e) => `${part}${e.instancePath} ${describe(e)}`).join(', '));
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'enum') return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  if (error.keyword === 'additionalProperties') return `must NOT have the additional property "${String(error.params.additionalProperty)}"`;
  return error.message ?? 'is invalid';
}

/** An anyOf whose every branch failed on a `const` at its own place: the values it allows. */
function literalChoice(errors: ErrorObject[]): { instancePath: string; values: unknown[] } | undefined {
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  if (!anyOf) return undefined;
  const branches = errors.filter((e) => e !== anyOf);
  if (branches.length === 0 || !branches.every((e) => e.keyword === 'const' && e.instancePath === anyOf.instancePath)) return undefined;
  return { instancePath: anyOf.instancePath, values: branches.map((e) => e.params.allowedValue) };
}
