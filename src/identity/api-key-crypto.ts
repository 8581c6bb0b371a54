import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** What POST /auth/api-keys returns once; only the apiKey is ever shown again. */
export interface ApiKeyCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/** A new key: a UUID, and a secret and passphrase of 32 random bytes each, base64url. */
export function generateCredentials(): ApiKeyCredentials {
  return { apiKey: randomUUID(), secret: randomToken(), passphrase: randomToken() };
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

const CIPHER_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a fresh IV; the API key is the additional authenticated data, so a
 * ciphertext copied onto another key's row fails to decrypt. Format: `v1.<base64url(iv|tag|ct)>`.
 */
export function encryptSecret(key: Buffer, apiKey: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(apiKey));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${CIPHER_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Inverse of encryptSecret; throws when the key, the AAD or the data do not match. */
export function decryptSecret(key: Buffer, apiKey: string, stored: string): string {
  const [version, payload] = stored.split('.');
  if (version !== CIPHER_VERSION || payload === undefined) throw new Error('unknown API-key secret format');
  const bytes = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(apiKey));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/**
 * Salted SHA-256. Passphrases are 256 random bits chosen by the server, so a slow KDF would add
 * no protection against guessing and would cost every signed request. Format: `sha256.<salt>.<hash>`.
 */
export function hashPassphrase(passphrase: string): string {
  const salt = randomBytes(16);
  return `sha256.${salt.toString('base64url')}.${digest(salt, passphrase).toString('base64url')}`;
}

export function passphraseMatches(passphrase: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('.');
  if (scheme !== 'sha256' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = digest(Buffer.from(salt, 'base64url'), passphrase);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function digest(salt: Buffer, passphrase: string): Buffer {
  return createHash('sha256').update(salt).update(passphrase, 'utf8').digest();
}
