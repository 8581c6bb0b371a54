import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { ERROR_STATUS, type ErrorCode } from '../contract/errors.ts';

/**
 * Slow clients (issue 38): a request must arrive whole, headers and body, within
 * REQUEST_TIMEOUT_MS (Node answers 408 and closes the connection), and an idle keep-alive
 * connection closes after KEEP_ALIVE_TIMEOUT_MS. Node checks the request deadlines every
 * `checkEveryMs`, so the check runs often enough for the deadline to mean what it says.
 */
export function connectionTimeouts(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Given to the server at creation: Node applies a request deadline only while the headers'
    // one is no longer (set afterwards, a 60 s headersTimeout left a half-sent body open for ever).
    http: { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(requestTimeoutMs / 4))) },
  };
}

/** Longer than the usual load balancer's idle timeout (AWS ALB: 60 s), as Fastify's default is. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** What became of connections cut for their client's behaviour, for `/metrics`. */
export interface ClientErrorCounter {
  handler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void;
  register(registry: Registry): void;
}

/**
 * The answer to a request Node's parser refused. Each code keeps one status (EXTENSIONS.md section
 * 9 fixes VALIDATION_FAILED at 400), so oversized headers, a 431, have a code of their own.
 */
function clientErrorAnswer(errorCode: string | undefined): { status: number; reason: string; code: ErrorCode; message: string } {
  const [reason, code, message]: [string, ErrorCode, string] = errorCode === 'ERR_HTTP_REQUEST_TIMEOUT' ? ['timeout', 'REQUEST_TIMEOUT', 'the request did not arrive in time']
    : errorCode === 'HPE_HEADER_OVERFLOW' ? ['headers-too-large', 'HEADERS_TOO_LARGE', 'the request\'s headers are too large']
      : ['malformed', 'VALIDATION_FAILED', 'malformed request'];
  return { status: ERROR_STATUS[code], reason, code, message };
}

/**
 * Fastify's `clientErrorHandler`: Fastify's own answer (408 for a request that did not arrive in
 * time, 431 for oversized headers, else 400, then the connection is closed), and each counted in
 * `pmx_http_client_errors_total{reason}`: `timeout`, `headers-too-large`, `malformed`.
 */
export function clientErrorCounter(): ClientErrorCounter {
  const counter = new Counter({ name: 'pmx_http_client_errors_total', help: 'connections closed for their client: a request not received within REQUEST_TIMEOUT_MS (timeout), oversized headers, malformed HTTP', labelNames: ['reason'] as const, registers: [] });
  return {
    handler(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, reason, code, message } = clientErrorAnswer(error.code);
      counter.inc({ reason });
      const text = STATUS_CODES[status]!;
      const body = JSON.stringify({ statusCode: status, error: text, code, message });
      if (socket.writable) socket.write(`HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
      socket.destroy();
    },
    register(registry) {
      registry.registerMetric(counter);
    },
  };
}

/**
 * The requests being handled: received whole (their body parsed) and not answered yet. A stopping
 * node waits for these, bounded, and cuts the rest at once: a client still sending its request has
 * nothing to lose, and a slow one must not hold a stop up (issue 38).
 */
export function trackHandledRequests(app: FastifyInstance): { readonly count: number } {
  let count = 0;
  app.addHook('preHandler', (_request, reply, done) => {
    count += 1;
    reply.raw.once('close', () => {
      count -= 1;
    });
    done();
  });
  return {
    get count() {
      return count;
    },
  };
}
