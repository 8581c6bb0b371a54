import { randomBytes } from 'node:crypto';
import type { Hex } from 'viem';
import { unauthorized } from '../contract/errors.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import type { NonceStore } from './nonces.ts';
import { findOrCreateUserByAddress, type ProxyWalletDerivation, type User } from '../store/users-repository.ts';
import type { IssuedSession, SessionTokens } from './session-tokens.ts';
import { parseSignInMessage, verifySignInMessage } from './siwe.ts';

export const NONCE_LIFETIME_MS = 10 * 60 * 1000;

export interface SignedIn extends IssuedSession {
  user: User;
}

/** Sign-In with Ethereum: nonces in a bounded, expiring store (Redis across nodes; never the database), sessions as JWTs. */
export class SignInService {
  constructor(
    private readonly db: Db,
    private readonly nonces: NonceStore,
    private readonly clock: Clock,
    private readonly sessions: SessionTokens,
    private readonly rules: { chainId: number; publicUrls: readonly string[]; siweDomains: readonly string[]; hmacWindowMs: number },
    private readonly proxyWalletOf: ProxyWalletDerivation,
  ) {}

  /** The origins the server listens on, once it does: the public origins when PUBLIC_URL is unset. */
  private listenOrigins: readonly string[] = [];

  listeningOn(origins: readonly string[]): void {
    this.listenOrigins = [...new Set(origins.map((origin) => new URL(origin).origin.toLowerCase()))];
  }

  /** What sign-in messages must name (EXTENSIONS.md section 2). */
  get origins(): readonly string[] {
    return this.rules.publicUrls.length > 0 ? this.rules.publicUrls : this.listenOrigins;
  }

  /** A fresh single-use nonce: 32 hex characters (EIP-4361 wants at least 8 alphanumerics). */
  async issueNonce(): Promise<string> {
    const nonce = randomBytes(16).toString('hex');
    const nowMs = this.clock.nowMs();
    await this.nonces.issue(nonce, nowMs + NONCE_LIFETIME_MS, NONCE_LIFETIME_MS);
    return nonce;
  }

  /**
   * Verifies the message and signature before spending the nonce, so a bad attempt does not burn
   * the nonce of a good one; the nonce is then consumed atomically. The message is checked against
   * the configured public origins only, never against the Host the request names.
   */
  async login(text: string, signature: Hex): Promise<SignedIn> {
    const message = parseSignInMessage(text);
    const nowMs = this.clock.nowMs();
    const address = await verifySignInMessage(message, text, signature, {
      chainId: this.rules.chainId,
      nowMs,
      origins: this.origins,
      extraHosts: this.rules.siweDomains,
      futureSkewMs: this.rules.hmacWindowMs,
      maxAgeMs: NONCE_LIFETIME_MS,
    });
    if (!(await this.nonces.consume(message.nonce, nowMs))) throw unauthorized('unknown, used or expired nonce');
    const user = await findOrCreateUserByAddress(this.db, address, this.proxyWalletOf);
    return { ...(await this.sessions.issue(user)), user };
  }
}
