import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import { deleteSetting, getOrCreateSetting, getSetting } from '../store/settings-repository.ts';

export interface ServerKeys {
  /** HS256 key of session JWTs. */
  readonly jwtSecret: Uint8Array;
  /** AES-256-GCM key of API-key secrets at rest: every secret is written under it. */
  readonly apiKeyEncryptionKey: Buffer;
  /**
   * Keys still accepted to read secrets written before a rotation: API_KEY_ENCRYPTION_KEY_PREVIOUS,
   * and a generated key from before API_KEY_ENCRYPTION_KEY was set.
   */
  readonly previousEncryptionKeys: readonly Buffer[];
  /** The variables left unset, whose keys were generated (a boot warning names them). */
  readonly generated: readonly string[];
  /**
   * Deletes the generated keys that configured ones replaced; call it once every secret has been
   * re-encrypted under the configured key (issue 38: they stayed beside the data for good).
   */
  forgetReplaced(): Promise<void>;
}

const JWT = 'jwt_secret';
const ENCRYPTION = 'api_key_encryption_key';
/** The file of generated keys in the embedded store's data directory (mode 0600). */
export const GENERATED_KEYS_FILE = 'server-keys.json';

/** Where generated keys are kept: a file of the data directory, memory, or (allowed) the database. */
interface KeyVault {
  get(name: string): Promise<string | undefined>;
  getOrCreate(name: string, candidate: () => string): Promise<string>;
  delete(name: string): Promise<void>;
}

export interface KeyPlace {
  db: Db;
  storeKind: 'pglite' | 'postgres';
  dataDir: string;
  /** --allow-generated-keys: keep generated keys in PostgreSQL (shared by every node). */
  allowGenerated: boolean;
}

/**
 * The configured keys, or generated ones (issue 38, EXTENSIONS.md section 10):
 * - on PostgreSQL (a production deployment) both must be configured, unless `--allow-generated-keys`
 *   keeps generated ones in the settings table, shared by every node;
 * - on the embedded store they live in `server-keys.json` of the data directory, mode 0600, not in
 *   the database (a dump of it holds no key); in memory for `memory://`. Keys an older version
 *   generated into the settings table move to the file.
 */
export async function loadServerKeys(config: Config, place: KeyPlace): Promise<ServerKeys> {
  const missing = [config.jwtSecret === undefined ? 'JWT_SECRET' : undefined, config.apiKeyEncryptionKey === undefined ? 'API_KEY_ENCRYPTION_KEY' : undefined].filter((name): name is string => name !== undefined);
  if (place.storeKind === 'postgres' && missing.length > 0 && !place.allowGenerated) {
    throw new ConfigError(`${missing.join(' and ')} must be set with DATABASE_URL, so the keys do not sit in the database beside the data they protect: make each with \`openssl rand -hex 32\` (JWT_SECRET: 32+ characters; API_KEY_ENCRYPTION_KEY: 64 hex digits), the same on every node; or start with --allow-generated-keys to keep generated ones in the database`);
  }
  const vault = await openVault(place);
  let jwtSecret = config.jwtSecret;
  if (jwtSecret === undefined) jwtSecret = await vault.getOrCreate(JWT, () => randomBytes(32).toString('base64url'));
  let encryptionKeyHex = config.apiKeyEncryptionKey;
  const previous = config.apiKeyEncryptionKeyPrevious === undefined ? [] : [config.apiKeyEncryptionKeyPrevious];
  if (encryptionKeyHex === undefined) {
    encryptionKeyHex = await vault.getOrCreate(ENCRYPTION, () => randomBytes(32).toString('hex'));
  } else {
    // Moving from a generated key to a configured one is a rotation too: secrets written under the
    // generated key stay readable until they are re-encrypted, then it is deleted.
    const formerlyGenerated = await vault.get(ENCRYPTION);
    if (formerlyGenerated !== undefined) previous.push(formerlyGenerated);
  }
  return {
    jwtSecret: new TextEncoder().encode(jwtSecret),
    apiKeyEncryptionKey: Buffer.from(encryptionKeyHex, 'hex'),
    previousEncryptionKeys: previous.filter((hex) => hex !== encryptionKeyHex).map((hex) => Buffer.from(hex, 'hex')),
    generated: missing,
    async forgetReplaced() {
      if (config.jwtSecret !== undefined) await vault.delete(JWT);
      if (config.apiKeyEncryptionKey !== undefined) await vault.delete(ENCRYPTION);
    },
  };
}

async function openVault(place: KeyPlace): Promise<KeyVault> {
  const { db } = place;
  const inDatabase: KeyVault = {
    get: (name) => getSetting(db, name),
    getOrCreate: (name, candidate) => getOrCreateSetting(db, name, candidate),
    delete: (name) => deleteSetting(db, name),
  };
  if (place.storeKind === 'postgres') return inDatabase;
  const file = place.dataDir.startsWith('memory://') ? undefined : join(place.dataDir, GENERATED_KEYS_FILE);
  const keys: Record<string, string> = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const save = () => {
    if (!file) return;
    if (Object.keys(keys).length === 0) {
      rmSync(file, { force: true });
      return;
    }
    writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  };
  // Keys an older version generated into the settings table move to the file.
  for (const name of [JWT, ENCRYPTION]) {
    const stored = await getSetting(db, name);
    if (stored === undefined) continue;
    keys[name] ??= stored;
    save();
    await deleteSetting(db, name);
  }
  return {
    get: async (name) => keys[name],
    async getOrCreate(name, candidate) {
      if (keys[name] === undefined) {
        keys[name] = candidate();
        save();
      }
      return keys[name]!;
    },
    async delete(name) {
      if (keys[name] === undefined) return;
      delete keys[name];
      save();
    },
  };
}
