/**
 * The HTTP ceiling of an order in `bench/http-orders.ts`: a bare Fastify server in its own process
 * that does with `POST /api/v1/orders` what any exchange must do with an order's bytes, and
 * nothing else: it reads the body as text, checks its HMAC headers (the exchange's scheme), parses
 * the JSON (a salt or 400) and answers 200 with the exchange's own answer to an order
 * (ORDER_ANSWER, captured by the bench), a fresh id in it each time. Beside it `GET /healthz` and `/metrics` (the process's
 * CPU time and longest event-loop turn, as the exchange serves them). Prints its port on stdout
 * once listening.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { collectDefaultMetrics, register } from 'prom-client';
import { hmacSignature, signaturesEqual, signedMessage } from '../src/identity/hmac.ts';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

const [API_KEY, SECRET, PASSPHRASE] = [required('API_KEY'), required('SECRET'), required('PASSPHRASE')];
const answer = JSON.parse(required('ORDER_ANSWER')) as Record<string, unknown>;

collectDefaultMetrics();
const app = Fastify();
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/metrics', async (_request, reply) => reply.type(register.contentType).send(await register.metrics()));
app.post('/api/v1/orders', async (request, reply) => {
  const body = request.body as string;
  const headers = request.headers;
  const expected = hmacSignature(SECRET, signedMessage(String(headers['svc-timestamp']), 'POST', request.url, body));
  const signed = headers['svc-api-key'] === API_KEY && headers['svc-passphrase'] === PASSPHRASE && signaturesEqual(expected, String(headers['svc-signature']));
  if (!signed) return reply.code(401).send({ error: 'UNAUTHORIZED' });
  const order = JSON.parse(body) as { salt?: unknown };
  if (typeof order.salt !== 'string') return reply.code(400).send({ error: 'VALIDATION_FAILED' });
  return { ...answer, id: randomUUID() };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(new URL(address).port);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
