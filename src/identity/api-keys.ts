import type { Address } from 'viem';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import {
  findActiveApiKey, insertApiKey, isApiKeyActive, listActiveApiKeys, revokeApiKey, touchApiKey, type ApiKeySummary,
} from '../store/api-keys-repository.ts';
import type { Revocations } from './revocations.ts';
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
  /**
   * True when other nodes may share the store (PostgreSQL): each use then also asks the store
   * whether the key is still unrevoked, so a revocation on any node is effective at once. PGlite
   * is embedded in one process, so there the in-memory eviction on revoke is complete.
   */
  storeIsShared: boolean;
  /** Where a revocation is announced (sockets opened with the key, other nodes). */
  revocations: Revocations;
}

/** How often one node may write a key's `last_used_at`. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys held in memory; the oldest loaded leaves first beyond this. */
const CACHE_LIMIT = 100_000;

/** Creates, lists and revokes API keys, and serves usable keys from memory. */
export class ApiKeyService {
  private readonly cache = new Map<string, ActiveApiKey>();
  /** Counts revocations on this node, so a load that raced one is not cached. */
  private revocations = 0;

  constructor(private readonly options: ApiKeyServiceOptions) {}

  async create(userId: string): Promise<ApiKeyCredentials> {
    const credentials = generateCredentials();
    await insertApiKey(this.options.db, {
      apiKey: credentials.apiKey,
      userId,
      secretCiphertext: encryptSecret(this.options.encryptionKey, credentials.apiKey, credentials.secret),
      passphraseHash: hashPassphrase(credentials.passphrase),
      createdAt: new Date(this.options.clock.nowMs()),
    });
    return credentials;
  }

  list(userId: string): Promise<ApiKeySummary[]> {
    return listActiveApiKeys(this.options.db, userId);
  }

  /** Revokes one of the user's keys; false when the user has no such unrevoked key. */
  async revoke(userId: string, apiKey: string): Promise<boolean> {
    const revoked = await revokeApiKey(this.options.db, apiKey, userId, new Date(this.options.clock.nowMs()));
    if (revoked) {
      this.forget(apiKey);
      this.options.revocations.announce({ apiKey });
    }
    return revoked;
  }

  /** Drops a key revoked here or on another node from memory. */
  forget(apiKey: string): void {
    this.revocations++;
    this.cache.delete(apiKey);
  }

  /** The unrevoked key, from memory when possible; undefined for unknown or revoked keys. */
  async resolve(apiKey: string): Promise<ActiveApiKey | undefined> {
    const cached = this.cache.get(apiKey);
    if (cached) {
      if (this.options.storeIsShared && !(await isApiKeyActive(this.options.db, apiKey))) {
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

  private async load(apiKey: string): Promise<ActiveApiKey | undefined> {
    const revocationsBefore = this.revocations;
    const stored = await findActiveApiKey(this.options.db, apiKey);
    if (!stored) return undefined;
    const key: ActiveApiKey = {
      apiKey,
      userId: stored.userId,
      address: stored.address,
      proxyWallet: stored.proxyWallet,
      secret: decryptSecret(this.options.encryptionKey, apiKey, stored.secretCiphertext),
      passphraseHash: stored.passphraseHash,
      lastTouchedMs: Number.NEGATIVE_INFINITY,
    };
    if (revocationsBefore !== this.revocations) return key;
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(apiKey, key);
    return key;
  }
}
