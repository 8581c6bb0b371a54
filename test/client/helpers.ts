import assert from 'node:assert/strict';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, ExchangeError, type EventInput, type ExchangeClient } from '../../src/client/index.ts';
import { ADMIN_TOKEN, type TestServer } from '../helpers/server.ts';

/** The operator's client of a test server. */
export const adminClient = (server: TestServer): ExchangeClient => createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } });

/** A trader's client: a new wallet signed in, with an API key, credited `fund` collateral when given. */
export async function traderClient(server: TestServer, fund?: string): Promise<ExchangeClient> {
  const client = createClient({ baseUrl: server.url, account: privateKeyToAccount(generatePrivateKey()) });
  await client.auth.signIn();
  await client.auth.createApiKey();
  if (fund) await adminClient(server).admin.credit((await client.account.get()).address, fund);
  return client;
}

/** A published event made through the SDK's admin calls; its markets carry token ids. */
export async function publishedMarkets(admin: ExchangeClient, options: { markets?: number; tickSize?: '0.1' | '0.01' | '0.001' | '0.0001'; outcomes?: [string, string]; negRisk?: boolean; orderFeeRateBps?: number; oracle?: Pick<EventInput, 'endDate' | 'proposalBond' | 'reward' | 'liveness'> } = {}) {
  const draft = await admin.admin.createEvent({
    ...options.oracle,
    name: `SDK test event ${crypto.randomUUID()}`,
    description: 'made by the SDK tests',
    ...(options.negRisk ? { negRisk: true } : {}),
    ...(options.orderFeeRateBps !== undefined ? { orderFeeRateBps: options.orderFeeRateBps } : {}),
    markets: Array.from({ length: options.markets ?? 1 }, (_, i) => ({
      name: `Market ${i + 1}`,
      ...(options.tickSize ? { tickSize: options.tickSize } : {}),
      ...(options.outcomes ? { outcome1: options.outcomes[0], outcome2: options.outcomes[1] } : {}),
    })),
  });
  const event = await admin.admin.publishEvent(draft.id);
  return { event, markets: event.markets.map((m) => ({ ...m, tokenId1: m.tokenId1!, tokenId2: m.tokenId2! })) };
}

/** Resolves to the ExchangeError a call throws. */
export async function thrown(call: Promise<unknown>): Promise<ExchangeError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof ExchangeError, `expected an ExchangeError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call did not throw');
}
