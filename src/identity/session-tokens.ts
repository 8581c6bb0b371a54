import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { getAddress, isAddress } from 'viem';
import { unauthorized } from '../contract/errors.ts';
import type { Caller } from './caller.ts';
import type { Clock } from '../clock.ts';
import type { User } from '../store/users-repository.ts';
import type { EndedSessions } from './revocations.ts';

/** Sessions last a day of server time; a client signs in again after that. */
const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

const ISSUER = 'pmx-exchange';
const ALGORITHM = 'HS256';

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/**
 * Session JWTs (HS256). They carry the user's id and both addresses, so verifying one needs no
 * database read; those fields never change for a user. Expiry is judged by the server clock.
 */
export class SessionTokens {
  constructor(private readonly secret: Uint8Array, private readonly clock: Clock, private readonly ended: EndedSessions) {}

  async issue(user: User): Promise<IssuedSession> {
    const issuedAtSeconds = Math.floor(this.clock.nowMs() / 1000);
    const expiresAtSeconds = issuedAtSeconds + SESSION_LIFETIME_MS / 1000;
    const token = await new SignJWT({ address: user.address, proxyWallet: user.proxyWallet })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(user.id)
      // The session's id: what POST /auth/logout ends.
      .setJti(randomUUID())
      .setIssuedAt(issuedAtSeconds)
      .setExpirationTime(expiresAtSeconds)
      .sign(this.secret);
    return { token, expiresAt: new Date(expiresAtSeconds * 1000) };
  }

  async verify(token: string): Promise<Caller> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        requiredClaims: ['sub', 'exp', 'jti'],
        currentDate: new Date(this.clock.nowMs()),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized('the sign-in token has expired');
      throw unauthorized('invalid sign-in token');
    }
    const { sub, jti, exp, address, proxyWallet } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || exp === undefined || !isAddressClaim(address) || !isAddressClaim(proxyWallet)) throw unauthorized('invalid sign-in token');
    if (await this.ended.isEnded(jti)) throw unauthorized('this session has ended (signed out)');
    return { userId: sub, address: getAddress(address), proxyWallet: getAddress(proxyWallet), via: 'jwt', sessionId: jti, expiresAtMs: exp * 1000 };
  }
}

function isAddressClaim(value: unknown): value is string {
  return typeof value === 'string' && isAddress(value, { strict: false });
}
