import { randomBytes, randomUUID } from 'node:crypto';
import type { EventInput } from '../../src/catalogue/admin.ts';
import type { EventView, MarketView } from '../../src/catalogue/views.ts';
import { insertOrders } from '../../src/store/orders-repository.ts';
import type { OrderStatus } from '../../src/store/schema.ts';
import { insertTrades } from '../../src/store/trades-repository.ts';
import { findOrCreateUserByAddress } from '../../src/store/users-repository.ts';
import { patch, post, type JsonResponse } from './http.ts';
import type { ApiServer, TestServer } from './server.ts';

/** A published market: its settlement ids are set. */
export type PublishedMarket = MarketView & { tokenId1: string; tokenId2: string; conditionId: string; questionId: string };
export interface PublishedEvent {
  event: EventView;
  markets: PublishedMarket[];
}

export interface EventOptions {
  /** Number of markets (default 1). */
  markets?: number;
  name?: string;
  negRisk?: boolean;
  tickSize?: '0.1' | '0.01' | '0.001' | '0.0001';
  orderFeeRateBps?: number;
  passiveOrderFeeRateBps?: number;
  speedBumpDelayMs?: number;
  startDate?: string;
  endDate?: string;
  protected?: boolean;
  seriesLayout?: boolean;
  categories?: string[];
  tags?: string[];
  reward?: string;
  proposalBond?: string;
  liveness?: number;
}

let counter = 0;

/** An EventInput (EXTENSIONS.md section 3) for the options, with unique names. */
export function eventInput(options: EventOptions = {}): EventInput {
  counter += 1;
  const name = options.name ?? `Test event ${counter} ${randomBytes(3).toString('hex')}`;
  const count = options.markets ?? 1;
  const { markets: _markets, name: _name, tickSize, speedBumpDelayMs, ...eventFields } = options;
  return {
    name,
    description: `About ${name}`,
    ...eventFields,
    markets: Array.from({ length: count }, (_, i) => ({
      name: count === 1 ? name : `${name} option ${i + 1}`,
      ...(tickSize ? { tickSize } : {}),
      ...(speedBumpDelayMs !== undefined ? { speedBumpDelayMs } : {}),
      ...(count > 1 ? { questionIndex: i } : {}),
    })),
  };
}

function expectOk<T>(response: JsonResponse<T>, what: string): T {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Creates a DRAFT event through the admin API. */
export async function createDraftEvent(server: ApiServer, options: EventOptions = {}): Promise<EventView> {
  return expectOk(await post<EventView>(server.api('/admin/events'), eventInput(options), server.adminHeaders), 'create event');
}

/** Creates and publishes an event through the admin API; its markets are ACTIVE with token ids. */
export async function createPublishedEvent(server: ApiServer, options: EventOptions = {}): Promise<PublishedEvent> {
  const draft = await createDraftEvent(server, options);
  const event = expectOk(await post<EventView>(server.api(`/admin/events/${draft.id}/publish`), undefined, server.adminHeaders), 'publish event');
  return { event, markets: event.markets as PublishedMarket[] };
}

/** PATCH /admin/markets/{id}. */
export async function patchMarket(server: ApiServer, marketId: string, changes: Record<string, unknown>): Promise<MarketView> {
  return expectOk(await patch<MarketView>(server.api(`/admin/markets/${marketId}`), changes, server.adminHeaders), 'patch market');
}

/** A user to own directly inserted orders and trades. */
async function someUser(server: TestServer) {
  return findOrCreateUserByAddress(server.ctx.store.db, `0x${randomBytes(20).toString('hex')}`, server.ctx.identity.proxyWalletOf);
}

let seq = 1_000_000n;

/** Inserts a trade row directly (the store's trading tables), as the engine would after a match. */
export async function insertTestTrade(server: TestServer, market: PublishedMarket, trade: { priceMicros: bigint; sizeBaseUnits: bigint; matchedAt?: Date; onToken2?: boolean; status?: 'MATCHED' | 'CONFIRMED' | 'FAILED' }): Promise<void> {
  const user = await someUser(server);
  seq += 1n;
  await insertTrades(server.ctx.store.db, [{
    id: randomUUID(),
    seq,
    market_id: market.id,
    kind: 'TRANSFER',
    status: trade.status ?? 'CONFIRMED',
    token_id: trade.onToken2 ? market.tokenId2 : market.tokenId1,
    side: 0,
    price_micros: trade.priceMicros,
    maker_token_id: trade.onToken2 ? market.tokenId2 : market.tokenId1,
    maker_side: 1,
    maker_price_micros: trade.priceMicros,
    size_base_units: trade.sizeBaseUnits,
    notional_base_units: (trade.priceMicros * trade.sizeBaseUnits) / 1_000_000n,
    taker_order_id: randomUUID(),
    maker_order_id: randomUUID(),
    taker_user_id: user.id,
    maker_user_id: user.id,
    taker_wallet: user.proxyWallet.toLowerCase(),
    maker_wallet: user.proxyWallet.toLowerCase(),
    taker_fee_base_units: 0n,
    maker_fee_base_units: 0n,
    tx_hash: null,
    matched_at: trade.matchedAt ?? new Date(server.ctx.clock.nowMs()),
    mined_at: null,
    confirmed_at: null,
  }]);
}

/** Inserts an order row directly: a resting order unless its status or delay says otherwise. */
export async function insertTestOrder(server: TestServer, market: PublishedMarket, order: { priceMicros: bigint; sizeBaseUnits: bigint; matchedBaseUnits?: bigint; status?: OrderStatus; delayed?: boolean }): Promise<void> {
  const user = await someUser(server);
  const now = new Date(server.ctx.clock.nowMs());
  seq += 1n;
  await insertOrders(server.ctx.store.db, [{
    id: randomUUID(),
    user_id: user.id,
    account: user.proxyWallet.toLowerCase(),
    market_id: market.id,
    token_id: market.tokenId1,
    outcome_index: 0,
    side: 0,
    order_type: 'GTC',
    post_only: false,
    status: order.status ?? 'PENDING',
    price_micros: order.priceMicros,
    size_base_units: order.sizeBaseUnits,
    matched_base_units: order.matchedBaseUnits ?? 0n,
    salt: '1',
    maker: user.proxyWallet.toLowerCase(),
    signer: user.address.toLowerCase(),
    taker: '0x0000000000000000000000000000000000000000',
    maker_amount: '0',
    taker_amount: '0',
    expiration: 0n,
    nonce: '0',
    fee_rate_bps: 0,
    passive_fee_rate_bps: 0,
    signature_type: 1,
    signature: '',
    hash: `0x${randomBytes(32).toString('hex')}`,
    idempotency_key: null,
    metadata: null,
    book_seq: seq,
    delayed_until: order.delayed ? new Date(now.getTime() + 1000) : null,
    created_at: now,
    updated_at: now,
  }]);
}
