import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import { getOrCreateSetting, getSetting } from '../store/settings-repository.ts';

export interface ServerKeys {
  /** HS256 key of session JWTs. */
  readonly jwtSecret: Uint8Array;
  /** AES-256-GCM key of API-key secrets at rest: every secret is written under it. */
  readonly apiKeyEncryptionKey: Buffer;
  /**
   * Keys still accepted to read secrets written before a rotation: API_KEY_ENCRYPTION_KEY_PREVIOUS,
   * and a key generated into the database before API_KEY_ENCRYPTION_KEY was set.
   */
  readonly previousEncryptionKeys: readonly Buffer[];
  /** The variables left unset, whose keys were generated into the database (a boot warning names them). */
  readonly generated: readonly string[];
}

const GENERATED_ENCRYPTION_KEY = 'api_key_encryption_key';

/**
 * The configured keys, or keys generated once and kept in the settings table so every node of
 * one database shares them. A generated key sits beside the data it protects (one leaked dump
 * holds both), which is why operators should set both variables (README "Security").
 */
export async function loadServerKeys(db: Db, config: Config): Promise<ServerKeys> {
  const generated: string[] = [];
  let jwtSecret = config.jwtSecret;
  if (jwtSecret === undefined) {
    generated.push('JWT_SECRET');
    jwtSecret = await getOrCreateSetting(db, 'jwt_secret', () => randomBytes(32).toString('base64url'));
  }
  let encryptionKeyHex = config.apiKeyEncryptionKey;
  const previous = config.apiKeyEncryptionKeyPrevious === undefined ? [] : [config.apiKeyEncryptionKeyPrevious];
  if (encryptionKeyHex === undefined) {
    generated.push('API_KEY_ENCRYPTION_KEY');
    encryptionKeyHex = await getOrCreateSetting(db, GENERATED_ENCRYPTION_KEY, () => randomBytes(32).toString('hex'));
  } else {
    // Moving from a generated key to a configured one is a rotation too: secrets written under the
    // generated key stay readable until they are re-encrypted.
    const formerlyGenerated = await getSetting(db, GENERATED_ENCRYPTION_KEY);
    if (formerlyGenerated !== undefined) previous.push(formerlyGenerated);
  }
  return {
    jwtSecret: new TextEncoder().encode(jwtSecret),
    apiKeyEncryptionKey: Buffer.from(encryptionKeyHex, 'hex'),
    previousEncryptionKeys: previous.filter((hex) => hex !== encryptionKeyHex).map((hex) => Buffer.from(hex, 'hex')),
    generated,
  };
}
