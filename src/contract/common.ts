import { Type, type TSchema } from 'typebox';

/** Shapes shared by many request and response schemas. */
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
/** How TypeScript (and viem) types a hex address. */
export type HexAddress = `0x${string}`;
/** A 20-byte hex address; typed HexAddress so SDK users hand it to viem without a cast. */
export const Address = Type.Unsafe<HexAddress>(Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }));
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A one-based page number. Bounded so that page × limit stays far inside a SQL bigint offset
 * (a page beyond it is 400, not a database error); no real list comes near a million pages.
 */
export const PAGE_MAX = 1_000_000;
export const PageNumber = Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1 });

/**
 * Bounds of the numeric query parameters, so that no value a client sends can reach SQL out of
 * range (a 500): every integer or number in a querystring or path schema has a maximum.
 */
/** 9999-12-31T23:59:59Z: the last second a SQL timestamp and an ISO date both hold. */
export const UNIX_SECONDS_MAX = 253_402_300_799;
/** Microsecond timestamps stay exact JavaScript numbers (until the year 2255). */
export const EPOCH_MICROS_MAX = Number.MAX_SAFE_INTEGER;
/** A trillion dollars: its base units (10^18) still fit a SQL bigint. */
export const USD_QUERY_MAX = 1_000_000_000_000;
export const UnixSeconds = (description: string) => Type.Integer({ minimum: 0, maximum: UNIX_SECONDS_MAX, description: `Unix seconds, ${description}` });
export const EpochMicros = (description: string) => Type.Integer({ minimum: 0, maximum: EPOCH_MICROS_MAX, description: `epoch microseconds, ${description}` });
export const UsdQueryAmount = (description: string) => Type.Number({ minimum: 0, maximum: USD_QUERY_MAX, description: `USD, ${description}` });
/**
 * A `limit` that SPEC.md clamps rather than refuses: any value up to PAGE_MAX is clamped by the
 * route; a larger one is as absurd as such a page and is 400.
 */
export const ClampedLimit = (defaultValue: number) => Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: defaultValue });

/** Standard error responses to attach to a route's `response` map. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBodySchema])) as Record<number, TSchema>;

/** A string enum as `{type: 'string', enum}` (a union of literals in TypeScript). */
export const oneOf = <const T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/**
 * `type: [T, null]` rather than anyOf: with the app's type coercion an anyOf would coerce null
 * into "" or 0 while trying its branches.
 */
export const orNull = <T>(schema: Record<string, unknown>) => Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });

export const MarketIdParams = Type.Object({ marketId: Uuid });
