import { createHmac } from 'node:crypto';

/**
 * The API-key HMAC recipe of SPEC.md section 5, as the reference at /docs shows it: the headers,
 * the string signed, and a worked example whose signature is computed here from its inputs, so the
 * page can never show a stale one (test/api/docs.test.ts checks it against the SDK's signer).
 */
export const HMAC_EXAMPLE = {
  apiKey: '5d6f2b1e-3a4c-4e8f-9b0a-1c2d3e4f5a6b',
  secret: 'c2VjcmV0LW9mLXRoZS13b3JrZWQtZXhhbXBsZS0wMQ',
  passphrase: 'cGFzc3BocmFzZS1vZi10aGUtZXhhbXBsZS0wMDAwMQ',
  timestamp: '1767225600000',
  method: 'POST',
  path: '/api/v1/orders/batch-cancel',
  body: '{"orderIds":["0b6e5c4e-1f2a-4b3c-9d8e-7f6a5b4c3d2e"]}',
};

/** Lowercase hex HMAC-SHA256 keyed with the secret's UTF-8 text over timestamp + METHOD + path + body. */
export function hmacHex(secret: string, timestamp: string, method: string, path: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}${method.toUpperCase()}${path}${body}`).digest('hex');
}

/** Markdown: how to sign a request, with the worked example, for header prefix `prefix`. */
export function hmacRecipe(prefix: string): string {
  const e = HMAC_EXAMPLE;
  const signed = `${e.timestamp}${e.method}${e.path}${e.body}`;
  const signature = hmacHex(e.secret, e.timestamp, e.method, e.path, e.body);
  return [
    '**Signing a request with an API key** (create one with `POST /api/v1/auth/api-keys` after signing in; the secret and passphrase are shown once).',
    '',
    `1. Take the time in Unix **milliseconds**, as a string: it must be within \`HMAC_WINDOW_MS\` (30 s) of the server's clock (\`GET /api/v1/exchange\` returns \`serverTime\`).`,
    '2. Concatenate, with no separator: the timestamp, the HTTP method in upper case, the path **with** `/api/v1` and **without** host or query string, and the body text exactly as sent (an empty string when there is no body).',
    '3. HMAC-SHA256 that string, keyed with the secret **as text** (its UTF-8 bytes; do not base64-decode it), and write the digest as lowercase hex.',
    `4. Send \`${prefix}-api-key\`, \`${prefix}-signature\`, \`${prefix}-timestamp\` and \`${prefix}-passphrase\`, and \`content-type: application/json\` with a body. Each signature is accepted once.`,
    '',
    '**Worked example**',
    '',
    '| input | value |',
    '|---|---|',
    `| API key | \`${e.apiKey}\` |`,
    `| secret | \`${e.secret}\` |`,
    `| passphrase | \`${e.passphrase}\` |`,
    `| timestamp | \`${e.timestamp}\` |`,
    `| method | \`${e.method}\` |`,
    `| path | \`${e.path}\` |`,
    `| body | \`${e.body}\` |`,
    '',
    'String signed:',
    '',
    '```',
    signed,
    '```',
    '',
    `Signature (\`${prefix}-signature\`): \`${signature}\``,
    '',
    'The same in a shell, and the headers of the request:',
    '',
    '```sh',
    `printf '%s' '${signed}' | openssl dgst -sha256 -hmac '${e.secret}' | sed 's/^.*= //'`,
    `# ${signature}`,
    `curl -X ${e.method} http://127.0.0.1:3000${e.path} \\`,
    `  -H '${prefix}-api-key: ${e.apiKey}' -H '${prefix}-signature: ${signature}' \\`,
    `  -H '${prefix}-timestamp: ${e.timestamp}' -H '${prefix}-passphrase: ${e.passphrase}' \\`,
    `  -H 'content-type: application/json' --data-raw '${e.body}'`,
    '```',
    '',
    'A GET signs an empty body, and its path without the query: `GET /api/v1/orders?market=…` signs `<timestamp>GET/api/v1/orders`. `pmx sign <METHOD> <path> [body] --curl` (the CLI, logged in with `pmx login`) prints these headers, or a ready curl command, for your own key.',
  ].join('\n');
}
