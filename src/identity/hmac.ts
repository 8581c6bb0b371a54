import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signed text of SPEC.md section 5: timestamp, upper-case method, path, body. */
export function signedMessage(timestamp: string, method: string, path: string, body: string): string {
  return `${timestamp}${method.toUpperCase()}${path}${body}`;
}

/** HMAC-SHA256 keyed with the UTF-8 bytes of the secret, lowercase hex. */
export function hmacSignature(secret: string, message: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(message, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures (the length check leaks only the length). */
export function signaturesEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request path as signed: the URL exactly as sent, without its query string. */
export function pathWithoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
