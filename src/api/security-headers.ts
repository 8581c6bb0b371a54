import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The policy of everything this server serves, the web app at `/` included: scripts, styles and
 * fonts from this origin only (inline styles allowed, which UI libraries inject), images from this
 * origin, data: and https:, and network requests to this origin over HTTP and Socket.IO (ws:/wss:,
 * which 'self' does not cover in every browser). No plugins, no framing, no foreign form targets.
 * `upgrade-insecure-requests` is left out: a local exchange on http://127.0.0.1 must keep working.
 */
const APP_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * The API reference at /docs starts its bundled viewer with an inline script and its theme loads
 * web fonts, so its pages alone also allow inline scripts and https: fonts. It shows only the
 * public OpenAPI document and holds no user data.
 */
const DOCS_POLICY = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline' https:; img-src 'self' data: https:; font-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/**
 * Security headers (helmet) on every response, with the policies above. The headers never depend
 * on the request, so helmet runs once at start and every response gets the same set: the Fastify
 * plugin built helmet's middleware again for each request, parsing the policy every time, which
 * cost more than a whole GET /healthz.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = headersOf(helmet({ contentSecurityPolicy: { useDefaults: true, directives: APP_POLICY } }));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/')) reply.header('content-security-policy', DOCS_POLICY);
  });
}

/** The headers helmet's middleware sets on a response (it reads nothing of the request). */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}
