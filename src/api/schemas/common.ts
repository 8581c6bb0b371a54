import { Type, type TSchema } from 'typebox';

/** Shapes shared by many routes. Route files declare their own request and response schemas. */
export const ErrorBodySchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
  },
  { description: 'The error body of EXTENSIONS.md section 9' },
);

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });
export const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A one-based page number. Bounded so that page × limit stays far inside a SQL bigint offset
 * (a page beyond it is 400, not a database error); no real list comes near a million pages.
 */
export const PAGE_MAX = 1_000_000;
export const PageNumber = Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1 });

/** Standard error responses to attach to a route's `response` map. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBodySchema])) as Record<number, TSchema>;
