/**
 * API-key HMAC of SPEC.md section 5 and EXTENSIONS.md section 2, with WebCrypto so the SDK runs
 * in browsers too: HMAC-SHA256 keyed with the secret's UTF-8 bytes over
 * timestamp + METHOD + path + body, lowercase hex.
 */
export interface ApiKeyCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

const utf8 = new TextEncoder();
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keys = new Map<string, Promise<HmacKey>>();

function hmacKey(secret: string): Promise<HmacKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(secret, key);
  }
  return key;
}

export async function hmacSignature(secret: string, timestamp: string, method: string, path: string, body: string): Promise<string> {
  const digest = await crypto.subtle.sign('HMAC', await hmacKey(secret), utf8.encode(`${timestamp}${method.toUpperCase()}${path}${body}`));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The four headers of a signed request; `path` is the wire path with /api/v1 and without the query. */
export async function hmacHeaders(creds: ApiKeyCredentials, prefix: string, timestampMs: number, method: string, path: string, body: string): Promise<Record<string, string>> {
  const timestamp = String(timestampMs);
  return {
    [`${prefix}-api-key`]: creds.apiKey,
    [`${prefix}-signature`]: await hmacSignature(creds.secret, timestamp, method, path, body),
    [`${prefix}-timestamp`]: timestamp,
    [`${prefix}-passphrase`]: creds.passphrase,
  };
}
