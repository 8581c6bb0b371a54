import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../contract/errors.ts';
import { FORWARDED_CLIENT_HEADER, registerForwardedClient, vouchForClient } from './forwarded-client.ts';
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
  /**
   * The cluster secret (shared through the database): the forwarding node signs the client's
   * address with it for the leader (`forwarded-client.ts`).
   */
  clusterSecret: string;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) are the connection's own, never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', FORWARDED_CLIENT_HEADER]);

/**
 * Order commands on every node (EXTENSIONS.md section 12). On a node that does not run the
 * engine, a request to a route marked `engineCommand` is passed on untouched (method, path, query,
 * headers, body bytes) to the leader's advertised origin before this node parses or authenticates
 * it, and the leader's answer goes back to the client as it came. The leader checks the HMAC, the
 * replay guard and the limits once, exactly as for a request sent to it directly. With no live
 * leader, when the leader does not answer in time, or on any error of the passing on, the client
 * gets 503 with Retry-After: it is safe to retry with the same idempotency key, since nothing was
 * acknowledged.
 *
 * The destination is only ever the leader's origin: the request's own target contributes its path
 * and query, nothing else. A request-target that is not origin-form (`/path?query`), such as the
 * absolute form `POST http://elsewhere/api/v1/orders`, is refused (400) on every route before
 * routing, so no client can point this node at another host (SSRF), at a port of its own choice,
 * or give it credentials (`user:pw@`) to send.
 */
export function registerCommandForwarding(app: FastifyInstance, options: ForwardingOptions): void {
  registerForwardedClient(app, options.clusterSecret);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const tlsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });
  app.addHook('onClose', async () => {
    agent.destroy();
    tlsAgent.destroy();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!isOriginForm(request.raw.url)) return done(new AppError('VALIDATION_FAILED', 'the request-target must be a path starting with "/" (origin-form)'));
    if (!request.routeOptions.config.engineCommand || options.leadership.role === 'leader') return done();
    const target = options.leadership.leaderUrl;
    if (!target) {
      options.onForwarded?.('unavailable');
      return done(new AppError('SERVICE_UNAVAILABLE', 'the matching engine is changing nodes; retry shortly'));
    }
    forward(request, reply, target, { http: agent, https: tlsAgent }, options);
  });
}

/** Origin-form (RFC 9112 section 3.2.1): an absolute path and an optional query, nothing before it. */
function isOriginForm(target: string | undefined): boolean {
  return target?.startsWith('/') === true && !target.startsWith('//');
}

function forward(request: FastifyRequest, reply: FastifyReply, leaderUrl: string, agents: { http: Agent; https: HttpsAgent }, options: ForwardingOptions): void {
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
  let outgoing: ClientRequest;
  try {
    // The leader's origin (scheme, host, port) and this request's path and query: nothing else.
    const origin = new URL(leaderUrl);
    const url = new URL(request.raw.url!, origin.origin);
    if (url.origin !== origin.origin) throw new Error('the request-target left the leader origin');
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    const headers = { ...passedOn(request), ...vouchForClient(options.clusterSecret, request, Date.now()) };
    outgoing = send(url, { method: request.method, headers, agent, timeout: options.timeoutMs }, (answer: IncomingMessage) => {
      if (finished) return answer.resume();
      finished = true;
      options.onForwarded?.('answered');
      raw.writeHead(answer.statusCode ?? 502, passedOnHeaders(answer.headers));
      answer.pipe(raw);
    });
  } catch (error) {
    request.log.warn({ err: error }, 'passing an order command to the engine node failed');
    request.raw.resume();
    unavailable('the node that runs the matching engine cannot be reached; retry shortly');
    return;
  }
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
