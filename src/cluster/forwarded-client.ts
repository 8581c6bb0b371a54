import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The client's address for limits: `request.ip`, or, on the engine's node, the address a
     * follower vouched for when it passed the request on (signed with the cluster secret).
     */
    clientAddress: string;
  }
}

/** The header a follower adds for the leader: `<ms>.<address>.<hmac>`; a client's own is dropped. */
export const FORWARDED_CLIENT_HEADER = 'x-pmx-forwarded-client';
/** How old a vouching may be: a forwarded request reaches the leader within its timeout. */
const WINDOW_MS = 60_000;

function mac(secret: string, timestampMs: number, address: string, method: string, url: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${address}\n${method}\n${url}`).digest('hex');
}

/** What a follower adds to a command it passes on: the client's address, signed for this request. */
export function vouchForClient(secret: string, request: FastifyRequest, nowMs: number): Record<string, string> {
  const address = request.clientAddress;
  return { [FORWARDED_CLIENT_HEADER]: `${nowMs}.${address}.${mac(secret, nowMs, address, request.method, request.raw.url ?? '')}` };
}

/** The address a follower vouched for, if the header is present, fresh and signed with the secret. */
export function vouchedClient(secret: string, request: FastifyRequest, nowMs: number): string | undefined {
  const header = request.headers[FORWARDED_CLIENT_HEADER];
  if (typeof header !== 'string') return undefined;
  const first = header.indexOf('.');
  const last = header.lastIndexOf('.');
  if (first <= 0 || last <= first) return undefined;
  const timestampMs = Number(header.slice(0, first));
  const address = header.slice(first + 1, last);
  if (!Number.isSafeInteger(timestampMs) || Math.abs(nowMs - timestampMs) > WINDOW_MS) return undefined;
  const expected = Buffer.from(mac(secret, timestampMs, address, request.method, request.raw.url ?? ''), 'hex');
  const given = Buffer.from(header.slice(last + 1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : undefined;
}

/**
 * Sets `request.clientAddress` on every request (issue 38): what a follower vouched for when the
 * request was passed on from it, else `request.ip` (TRUST_PROXY applied). Only a node holding the
 * cluster secret (kept in the shared database) can vouch, so no client sets its own address, and
 * one client's refused requests on a follower never count against another client there.
 */
export function registerForwardedClient(app: FastifyInstance, secret: string): void {
  app.decorateRequest('clientAddress', '');
  app.addHook('onRequest', (request, _reply, done) => {
    request.clientAddress = vouchedClient(secret, request, Date.now()) ?? request.ip;
    done();
  });
}
