import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { buildOutput } from '../../build-output.ts';
import { notFoundHandler } from '../error-handler.ts';
import type { TypedApp } from '../typed-app.ts';

/** Where `npm run build` (and the install's `prepare`) writes the web app. */
export const WEB_APP_DIR = buildOutput('web');

/** Paths that belong to the server, never to the web app: their 404s stay JSON (EXTENSIONS.md §9). */
const SERVER_PREFIXES = ['/api/', '/docs', '/openapi.json', '/healthz', '/readyz', '/metrics', '/socket.io'];

/**
 * Serves the trading web app (src/web, built into dist/web) at `/`: its files as they are, hashed
 * assets cached for a year, and index.html for any other page a browser asks for, so that deep links
 * such as /market/some-slug load the app, which routes on the client. Without a build the server
 * runs as before and logs how to make one.
 */
export async function registerWebApp(app: TypedApp, root = WEB_APP_DIR): Promise<void> {
  if (!existsSync(`${root}/index.html`)) {
    app.log.warn(`no web app build in ${root}: run "npm run build" to serve it at /`);
    app.setNotFoundHandler(notFoundHandler);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    // One route per built file, found at boot: unknown paths fall through to the handler below.
    wildcard: false,
    cacheControl: false,
    // @fastify/static 9 (the last on Node 20) hands over the raw response.
    setHeaders: (response, path) => {
      const hashed = path.includes('/assets/');
      response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler((request, reply) => (isPageRequest(request) ? sendIndex(reply) : notFoundHandler(request, reply)));
}

/** A browser navigating to a page: GET or HEAD, wants HTML, and not a server path. */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!(request.headers.accept ?? '').includes('text/html')) return false;
  const path = request.url.split('?')[0]!;
  return !SERVER_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
}
