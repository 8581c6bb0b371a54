import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import { getOrCreateSetting } from '../store/settings-repository.ts';

export interface ServerKeys {
  /** HS256 key of session JWTs. */
  readonly jwtSecret: Uint8Array;
  /** AES-256-GCM key of API-key secrets at rest. */
  readonly apiKeyEncryptionKey: Buffer;
}

/**
 * The configured keys, or keys generated once and kept in the settings table so every node of
 * one database shares them. A generated encryption key sits beside the data it protects, which
 * is why operators should set API_KEY_ENCRYPTION_KEY.
 */
export async function loadServerKeys(db: Db, config: Config): Promise<ServerKeys> {
  const jwtSecret = config.jwtSecret ?? await getOrCreateSetting(db, 'jwt_secret', () => randomBytes(32).toString('base64url'));
  const encryptionKeyHex = config.apiKeyEncryptionKey ?? await getOrCreateSetting(db, 'api_key_encryption_key', () => randomBytes(32).toString('hex'));
  return {
    jwtSecret: new TextEncoder().encode(jwtSecret),
    apiKeyEncryptionKey: Buffer.from(encryptionKeyHex, 'hex'),
  };
}
