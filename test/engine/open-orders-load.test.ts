import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../src/store/database.ts';
import { openOrderChunks } from '../../src/store/open-order-chunks-repository.ts';
import { insertOrders, type OpenOrderRow, type OrderRow } from '../../src/store/orders-repository.ts';
import { openTestStore } from '../helpers/database.ts';

/**
 * A restart reads every open order as one text line, in chunks by keyset (orders-repository.ts
 * `openOrderChunks`): each field must come back as the typed row read column by column gives it,
 * only open orders, in time priority within each market, each once whatever the chunk size. On
 * PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
describe('loading open orders for a restart', () => {
  let store: Store;
  const userId = randomUUID();
  const [marketA, marketB] = [randomUUID(), randomUUID()].sort() as [string, string];

  function order(bookSeq: bigint, marketId: string, fields: Partial<OrderRow> = {}): OrderRow {
    return {
      id: randomUUID(), user_id: userId, account: '0x00000000000000000000000000000000000000aa', market_id: marketId,
      token_id: '95902892605831670800194514658538802768467261022988135118999285618469679707620', outcome_index: 0, side: 0,
      order_type: 'GTC', post_only: false, status: 'PENDING', price_micros: 450_000n, size_base_units: 10_000_000n, matched_base_units: 0n,
      salt: '1', maker: '0xm', signer: '0xs', taker: '0x0', maker_amount: '4500000', taker_amount: '10000000', expiration: 0n, nonce: '0',
      fee_rate_bps: 0, passive_fee_rate_bps: 0, signature_type: 0, signature: '0xsig', hash: `0x${randomUUID()}`, idempotency_key: null, metadata: null, book_seq: bookSeq,
      delayed_until: null, created_at: new Date(), updated_at: new Date(), ...fields,
    };
  }

  const rows = [
    order(7n, marketB, { side: 1, outcome_index: 1, token_id: '1', price_micros: 10_000n, expiration: 4_102_444_800n, fee_rate_bps: 1000, passive_fee_rate_bps: 25 }),
    order(3n, marketA, { status: 'EXECUTING', matched_base_units: 2_500_000n, size_base_units: 9_223_372_036_854_775_807n }),
    order(5n, marketB, { order_type: 'GTC', post_only: true, delayed_until: new Date(Date.UTC(2026, 10, 27, 10, 0, 0, 123)) }),
    order(1n, marketA, { order_type: 'FAK', account: '0x00000000000000000000000000000000000000bb' }),
    order(2n, marketA, { status: 'EXECUTED', matched_base_units: 10_000_000n }),
    order(4n, marketB, { status: 'CANCELLED' }),
  ];

  async function loaded(perRead?: number): Promise<OpenOrderRow[][]> {
    const chunks: OpenOrderRow[][] = [];
    for await (const chunk of openOrderChunks(store.db, perRead)) chunks.push(chunk);
    return chunks;
  }

  before(async () => {
    store = await openTestStore();
    await sql`INSERT INTO users (id, address, proxy_wallet) VALUES (${userId}, '0xa', '0xb')`.execute(store.db);
    await insertOrders(store.db, rows);
  });
  after(async () => {
    await store?.close();
  });

  it('gives back every open order field by field as the columns hold it, by market then book_seq', async () => {
    const columns = ['id', 'user_id', 'account', 'market_id', 'token_id', 'outcome_index', 'side', 'order_type', 'post_only', 'status', 'price_micros',
      'size_base_units', 'matched_base_units', 'expiration', 'fee_rate_bps', 'passive_fee_rate_bps', 'book_seq', 'delayed_until'] as const;
    const expected = await store.db.selectFrom('orders').select(columns).where('status', 'in', ['PENDING', 'EXECUTING']).orderBy('market_id').orderBy('book_seq').execute();
    assert.equal(expected.length, 4);
    assert.deepEqual(await loaded(), [expected]);
    assert.deepEqual(expected.map((r) => r.book_seq), [1n, 3n, 5n, 7n]);
  });

  it('reads chunk after chunk across markets, each order once, ending on a short or empty chunk', async () => {
    const all = (await loaded()).flat();
    for (const perRead of [1, 2, 3, 4, 5]) {
      const chunks = await loaded(perRead);
      assert.deepEqual(chunks.flat(), all, `${perRead} per read`);
      assert.ok(chunks.every((chunk) => chunk.length <= perRead));
      assert.equal(chunks.length, Math.floor(all.length / perRead) + 1, 'a full last chunk asks once more and gets none');
    }
  });
});
