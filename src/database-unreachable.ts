import { ConfigError } from './config.ts';

/** Connection failures PostgreSQL's client reports before any statement runs: the server's own or the network's. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', '28P01', '28000', '3D000']);

/**
 * A DATABASE_URL that could not be reached (by a boot, `pmx migrate` or `pmx audit`), said in one
 * line naming it without its password, or undefined for any other failure.
 */
export function databaseUnreachable(databaseUrl: string | undefined, error: unknown): ConfigError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (!databaseUrl || typeof code !== 'string' || !UNREACHABLE_CODES.has(code)) return undefined;
  const url = new URL(databaseUrl);
  const reason = error instanceof Error && error.message ? error.message : code;
  return new ConfigError(`cannot reach the PostgreSQL database of DATABASE_URL (${url.host}${url.pathname}): ${reason}`);
}
