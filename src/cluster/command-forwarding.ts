import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../contract/errors.ts';
import type { Leadership } from './leadership.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route commands the matching engine: a node that does not run it passes the request on. */
    engineCommand?: boolean;
  }
}

export interface ForwardingOptions {
  leadership: Leadership;
  /** How long a passed-on command may take before the client is told to retry. */
  timeoutMs: number;
  onForwarded?(outcome: 'answered' | 'unavailable'): void;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) are the connection's own, never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

/**
 * Order commands on every node (EXTENSIONS.md section 12). On a node that does not run the
 * engine, a request to a route marked `engineCommand` is passed on untouched (method, path, headers,
 * body bytes) to the leader's advertised URL before this node parses or authenticates it, and the
 * leader's answer goes back to the client as it came. The leader checks the HMAC, the replay guard
 * and the limits once, exactly as for a request sent to it directly. With no live leader, or when
 * the leader does not answer in time, the client gets 503 with Retry-After: it is safe to retry
 * with the same idempotency key, since nothing was acknowledged.
 */
export function registerCommandForwarding(app: FastifyInstance, options: ForwardingOptions): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  app.addHook('onClose', async () => agent.destroy());
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.config.engineCommand || options.leadership.role === 'leader') return done();
    const target = options.leadership.leaderUrl;
    if (!target) {
      options.onForwarded?.('unavailable');
      return done(new AppError('SERVICE_UNAVAILABLE', 'the matching engine is changing nodes; retry shortly'));
    }
    forward(request, reply, new URL(request.url, target), agent, options);
  });
}

function forward(request: FastifyRequest, reply: FastifyReply, url: URL, agent: Agent, options: ForwardingOptions): void {
  reply.hijack();
  const raw = reply.raw;
  let finished = false;
  const unavailable = (message: string): void => {
    if (finished) return;
    finished = true;
    options.onForwarded?.('unavailable');
    if (raw.headersSent) {
      raw.destroy();
      return;
    }
    raw.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
    raw.end(JSON.stringify(errorBody(503, 'SERVICE_UNAVAILABLE', message)));
  };
  const outgoing = httpRequest(url, { method: request.method, headers: passedOn(request), agent, timeout: options.timeoutMs }, (answer) => {
    if (finished) return answer.resume();
    finished = true;
    options.onForwarded?.('answered');
    raw.writeHead(answer.statusCode ?? 502, passedOnHeaders(answer.headers));
    answer.pipe(raw);
  });
  outgoing.on('timeout', () => {
    outgoing.destroy();
    unavailable(`the node that runs the matching engine did not answer within ${options.timeoutMs} ms; retry with the same idempotency key`);
  });
  outgoing.on('error', () => unavailable('the node that runs the matching engine cannot be reached; retry shortly'));
  request.raw.pipe(outgoing);
}

function passedOn(request: FastifyRequest): Record<string, string | string[]> {
  const headers = passedOnHeaders(request.headers);
  const forwardedFor = request.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${request.ip}` : request.ip;
  return headers;
}

function passedOnHeaders(source: IncomingHttpHeaders): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(source)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  return headers;
}
