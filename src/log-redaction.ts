import type { Config } from './config.ts';

/** A secret as it may appear in a log line, and what the line says instead. */
type Redaction = readonly [secret: string, shown: string];

/**
 * What the log must never print of the configured URLs: a provider's key in CHAIN_RPC_URL's path
 * or query (`https://polygon-mainnet.g.alchemy.com/v2/<key>`; the URL is shown as its origin), and
 * the password of DATABASE_URL or REDIS_URL. viem's errors print the URL they called whole
 * ("URL: …"), and a logged error carries its message; these are replaced in every line written.
 * Undefined when no configured URL holds one.
 */
export function logRedaction(config: Pick<Config, 'chainRpcUrl' | 'databaseUrl' | 'redisUrl'>): ((line: string) => string) | undefined {
  const redactions: Redaction[] = [
    ...(config.chainRpcUrl ? beyondOrigin(config.chainRpcUrl) : []),
    ...[config.databaseUrl, config.redisUrl].flatMap((url) => (url ? password(url) : [])),
  ];
  if (redactions.length === 0) return undefined;
  return (line) => redactions.reduce((redacted, [secret, shown]) => redacted.replaceAll(secret, shown), line);
}

function beyondOrigin(raw: string): Redaction[] {
  const url = new URL(raw);
  if (url.pathname === '/' && !url.search && !url.username && !url.password) return [];
  const shown = `${url.protocol}//${url.host}/…`;
  // The longer form first: the configured text, then the normalised one viem may print.
  return [...new Set([raw, url.href])].sort((a, b) => b.length - a.length).map((secret): Redaction => [secret, shown]);
}

function password(raw: string): Redaction[] {
  const { password } = new URL(raw);
  return password ? [[`:${password}@`, ':***@']] : [];
}
