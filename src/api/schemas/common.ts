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

/** Standard error responses to attach to a route's `response` map. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBodySchema])) as Record<number, TSchema>;
