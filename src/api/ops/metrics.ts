import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

const registries = new WeakMap<FastifyInstance, Registry>();

/** The registry of an app built by `buildApp`, for what is attached after it (Socket.IO). */
export function metricsRegistryOf(app: FastifyInstance): Registry {
  const registry = registries.get(app);
  if (!registry) throw new Error('this app has no metrics registry');
  return registry;
}

/**
 * A Prometheus registry per app instance (tests run several apps in one process), with process
 * metrics and one histogram of HTTP requests labelled by route pattern, never by raw URL.
 */
export function registerHttpMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  registries.set(app, registry);
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  return registry;
}
