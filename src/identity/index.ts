import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Store } from '../store/database.ts';
import type { ProxyWalletDerivation } from '../store/users-repository.ts';
import { ApiKeyService } from './api-keys.ts';
import { IdentityAuthenticator } from './authenticator.ts';
import { loadServerKeys } from './server-keys.ts';
import { RedisReplayGuard, ReplayGuard } from './replay-guard.ts';
import type { SharedState } from '../shared-state/index.ts';
import { SessionTokens } from './session-tokens.ts';
import { EndedSessions, Revocations, type Revocation } from './revocations.ts';
import { SignInService } from './sign-in.ts';
import { MemoryNonces, RedisNonces } from './nonces.ts';

/** The identity module as the server wires it: sign-in, API keys, and the credential checks. */
export interface Identity {
  readonly signIn: SignInService;
  readonly apiKeys: ApiKeyService;
  /** The auth hook's UserAuthenticator; also verifies the Socket.IO `/user` handshake. */
  readonly authenticator: IdentityAuthenticator;
  /** Sessions ended before expiry (POST /auth/logout). */
  readonly endedSessions: EndedSessions;
  /** Every credential that stops working on this node is announced here. */
  readonly revocations: Revocations;
  /** The proxy wallet a new user gets: the deployed factory's address with a chain, else the fixed derivation. */
  readonly proxyWalletOf: ProxyWalletDerivation;
  /** JWT_SECRET and API_KEY_ENCRYPTION_KEY when they were generated (boot warning). */
  readonly generatedKeys: readonly string[];
  /** Applies a revocation announced by another node to this node's memory. */
  applyRemote(revocation: Revocation): void;
}

export async function createIdentity(deps: { config: Config; clock: Clock; store: Store; shared: SharedState; proxyWalletOf: ProxyWalletDerivation }): Promise<Identity> {
  const { config, clock, store, shared, proxyWalletOf } = deps;
  const keys = await loadServerKeys(config, { db: store.db, storeKind: store.kind, dataDir: config.dataDir, allowGenerated: config.allowGeneratedKeys });
  const storeIsShared = store.kind === 'postgres';
  const revocations = new Revocations();
  const endedSessions = new EndedSessions(store.db, clock, storeIsShared, revocations);
  await endedSessions.load();
  const sessions = new SessionTokens(keys.jwtSecret, clock, endedSessions);
  const apiKeys = new ApiKeyService({ db: store.db, clock, encryptionKey: keys.apiKeyEncryptionKey, previousEncryptionKeys: keys.previousEncryptionKeys, storeIsShared, revocations, keysPerUser: config.apiKeysPerUser });
  await apiKeys.reencryptUnderCurrentKey();
  // Every secret now opens under the configured key: the generated keys it replaced go.
  await keys.forgetReplaced();
  // With Redis every node shares one replay record (EXTENSIONS.md section 12); without, one node.
  const replays = shared.redis ? new RedisReplayGuard(shared.redis, shared.key, config.hmacWindowMs) : new ReplayGuard(config.hmacWindowMs);
  return {
    // Unused sign-in nonces never reach the database (issue 38); with Redis every node shares them.
    signIn: new SignInService(store.db, shared.redis ? new RedisNonces(shared.redis, shared.key) : new MemoryNonces(), clock, sessions, { chainId: config.chainId, publicUrls: config.publicUrls, siweDomains: config.siweDomains, hmacWindowMs: config.hmacWindowMs }, proxyWalletOf),
    apiKeys,
    proxyWalletOf,
    endedSessions,
    revocations,
    generatedKeys: keys.generated,
    applyRemote(revocation) {
      if ('apiKey' in revocation) apiKeys.forget(revocation.apiKey);
      else endedSessions.remember(revocation.sessionId, revocation.expiresAtMs);
    },
    authenticator: new IdentityAuthenticator(sessions, apiKeys, clock, { headerPrefix: config.headerPrefix, hmacWindowMs: config.hmacWindowMs }, replays),
  };
}
