import type { Address } from 'viem';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import {
  findActiveApiKey, findApiKeyOwner, insertApiKeyWithinCap, listActiveSecrets, updateApiKeySecret, activeApiKeysAmong, listActiveApiKeys, revokeApiKey, touchApiKey, type ApiKeySummary,
} from '../store/api-keys-repository.ts';
import { badRequest } from '../contract/errors.ts';
import type { Revocations } from './revocations.ts';
import { TurnBatchedLookup } from './turn-batched-lookup.ts';
import { decryptSecret, encryptSecret, generateCredentials, hashPassphrase, type ApiKeyCredentials } from './api-key-crypto.ts';

/** A usable key as held in memory: the decrypted secret, so signed requests cost no decryption. */
export interface ActiveApiKey {
  readonly apiKey: string;
  readonly userId: string;
  readonly address: Address;
  readonly proxyWallet: Address;
  readonly secret: string;
  readonly passphraseHash: string;
  /** When this node last wrote `last_used_at` (server clock, ms). */
  lastTouchedMs: number;
}

export interface ApiKeyServiceOptions {
  db: Db;
  clock: Clock;
  encryptionKey: Buffer;
  /** Keys being rotated out: secrets they encrypted are still read, and re-encrypted (server-keys.ts). */
  previousEncryptionKeys: readonly Buffer[];
  /**
   * True when other nodes may share the store (PostgreSQL): each use then also asks the store
   * whether the key is still unrevoked, so a revocation on any node is effective at once. PGlite
   * is embedded in one process, so there the in-memory eviction on revoke is complete.
   */
  storeIsShared: boolean;
  /** Where a revocation is announced (sockets opened with the key, other nodes). */
  revocations: Revocations;
  /** API_KEYS_PER_USER: unrevoked keys one user may hold. */
  keysPerUser: number;
}

/** How often one node may write a key's `last_used_at`. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys held in memory; the oldest loaded leaves first beyond this. */
const CACHE_LIMIT = 100_000;
/**
 * How long a key the store does not know is answered from memory: requests with invented keys
 * then cost one store read per key and minute, not one each. Keys are random UUIDs chosen at
 * creation, so no real key is ever looked up before it exists.
 */
const UNKNOWN_KEY_TTL_MS = 60_000;

/** Creates, lists and revokes API keys, and serves usable keys from memory. */
export class ApiKeyService {
  private readonly cache = new Map<string, ActiveApiKey>();
  /** Keys the store did not know (or held revoked), until when to believe it (server clock). */
  private readonly unknown = new Map<string, number>();
  /** Counts revocations on this node, so a load that raced one is not cached. */
  private revocations = 0;
  /** On a shared store: whether keys are still unrevoked, asked of it once per event-loop turn. */
  private readonly stillActive: TurnBatchedLookup;

  constructor(private readonly options: ApiKeyServiceOptions) {
    this.stillActive = new TurnBatchedLookup((apiKeys) => activeApiKeysAmong(options.db, apiKeys));
  }

  /** A new key; 400 when the user already holds API_KEYS_PER_USER unrevoked keys. */
  async create(userId: string): Promise<ApiKeyCredentials> {
    const credentials = generateCredentials();
    const inserted = await insertApiKeyWithinCap(this.options.db, {
      apiKey: credentials.apiKey,
      userId,
      secretCiphertext: encryptSecret(this.options.encryptionKey, credentials.apiKey, credentials.secret),
      passphraseHash: hashPassphrase(credentials.passphrase),
      createdAt: new Date(this.options.clock.nowMs()),
    }, this.options.keysPerUser);
    if (!inserted) throw badRequest(`at most ${this.options.keysPerUser} API keys per user; revoke one first`);
    return credentials;
  }

  list(userId: string): Promise<ApiKeySummary[]> {
    return listActiveApiKeys(this.options.db, userId);
  }

  /**
   * Revokes one of the user's keys. `not-owner` when the key was issued to another user (an
   * action on another user's resource, 403), `not-found` when the user has no such unrevoked key.
   */
  async revoke(userId: string, apiKey: string): Promise<'revoked' | 'not-owner' | 'not-found'> {
    if (await revokeApiKey(this.options.db, apiKey, userId, new Date(this.options.clock.nowMs()))) {
      this.forget(apiKey);
      this.options.revocations.announce({ apiKey });
      return 'revoked';
    }
    const owner = await findApiKeyOwner(this.options.db, apiKey);
    return owner !== undefined && owner !== userId ? 'not-owner' : 'not-found';
  }

  /** Drops a key revoked here or on another node from memory. */
  forget(apiKey: string): void {
    this.revocations++;
    this.cache.delete(apiKey);
  }

  /** The unrevoked key, from memory when possible; undefined for unknown or revoked keys. */
  async resolve(apiKey: string): Promise<ActiveApiKey | undefined> {
    if ((this.unknown.get(apiKey) ?? 0) > this.options.clock.nowMs()) return undefined;
    const cached = this.cache.get(apiKey);
    if (cached) {
      if (this.options.storeIsShared && !(await this.stillActive.has(apiKey))) {
        this.cache.delete(apiKey);
        return undefined;
      }
      return cached;
    }
    return this.load(apiKey);
  }

  /** Records a use, writing to the store at most once a minute per key and node. */
  async markUsed(key: ActiveApiKey): Promise<void> {
    const nowMs = this.options.clock.nowMs();
    if (nowMs - key.lastTouchedMs < LAST_USED_RESOLUTION_MS) return;
    key.lastTouchedMs = nowMs;
    await touchApiKey(this.options.db, key.apiKey, new Date(nowMs));
  }

  /**
   * Key rotation: re-encrypts under the current key every unrevoked secret that only a previous
   * key opens. Run at boot when previous keys are configured; secrets already under the current
   * key are left alone, so every node may run it.
   */
  async reencryptUnderCurrentKey(): Promise<number> {
    if (this.options.previousEncryptionKeys.length === 0) return 0;
    let rewritten = 0;
    for (const { apiKey, secretCiphertext } of await listActiveSecrets(this.options.db)) {
      if (opens(this.options.encryptionKey, apiKey, secretCiphertext)) continue;
      await this.decrypt(apiKey, secretCiphertext);
      rewritten++;
    }
    return rewritten;
  }

  /** The secret, from the current key or a previous one; one that only a previous key opens is re-encrypted. */
  private async decrypt(apiKey: string, stored: string): Promise<string> {
    if (opens(this.options.encryptionKey, apiKey, stored)) return decryptSecret(this.options.encryptionKey, apiKey, stored);
    const previous = this.options.previousEncryptionKeys.find((key) => opens(key, apiKey, stored));
    if (!previous) throw new Error(`the secret of API key ${apiKey} opens under no configured encryption key`);
    const secret = decryptSecret(previous, apiKey, stored);
    await updateApiKeySecret(this.options.db, apiKey, encryptSecret(this.options.encryptionKey, apiKey, secret));
    return secret;
  }

  private rememberUnknown(apiKey: string): void {
    const nowMs = this.options.clock.nowMs();
    for (const [key, until] of this.unknown) {
      if (until > nowMs && this.unknown.size < CACHE_LIMIT) break;
      this.unknown.delete(key);
    }
    this.unknown.set(apiKey, nowMs + UNKNOWN_KEY_TTL_MS);
  }

  private async load(apiKey: string): Promise<ActiveApiKey | undefined> {
    const revocationsBefore = this.revocations;
    const stored = await findActiveApiKey(this.options.db, apiKey);
    if (!stored) {
      this.rememberUnknown(apiKey);
      return undefined;
    }
    const key: ActiveApiKey = {
      apiKey,
      userId: stored.userId,
      address: stored.address,
      proxyWallet: stored.proxyWallet,
      secret: await this.decrypt(apiKey, stored.secretCiphertext),
      passphraseHash: stored.passphraseHash,
      lastTouchedMs: Number.NEGATIVE_INFINITY,
    };
    if (revocationsBefore !== this.revocations) return key;
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(apiKey, key);
    return key;
  }
}

function opens(key: Buffer, apiKey: string, stored: string): boolean {
  try {
    decryptSecret(key, apiKey, stored);
    return true;
  } catch {
    return false;
  }
}
