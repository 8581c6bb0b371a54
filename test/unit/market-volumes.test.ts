import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../../src/store/database.ts';
import { columnArrays } from '../../src/store/column-arrays.ts';
import * as marketVolumes from '../../src/store/migrations/0027_market_volumes.ts';
import { volumesAgainstTrades } from '../../src/store/order-audit-repository.ts';
import { insertTrades, TRADE_COLUMN_TYPES, type TradeRow } from '../../src/store/trades-repository.ts';
import { openTestStore } from '../helpers/database.ts';

/**
 * The volumes triggers keep on trades (migration 0027) against the trades themselves, whatever
 * statements write them: inserts, status updates, deletes, and the projection's upserts (a trade
 * inserted or, when the table has it, moved on), in any order and batching, on the suite's store.
 */
const MARKETS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
const STATUSES = ['MATCHED', 'MINED', 'CONFIRMED', 'FAILED'] as const;
const HOUR_MS = 3_600_000;
const START_MS = Date.UTC(2026, 11, 1);

let seq = 0n;
function trade(market: number, minute: number, status: string, notional: number): TradeRow {
  seq += 1n;
  return {
    id: randomUUID(), seq, market_id: MARKETS[market]!, kind: 'TRANSFER', status: status as TradeRow['status'], token_id: '1', side: 0, price_micros: 500_000n,
    size_base_units: BigInt(notional) * 2n, notional_base_units: BigInt(notional), maker_token_id: '1', maker_side: 1, maker_price_micros: 500_000n,
    taker_order_id: randomUUID(), maker_order_id: randomUUID(), taker_user_id: randomUUID(), maker_user_id: randomUUID(), taker_wallet: '0xa', maker_wallet: '0xb',
    taker_fee_base_units: 0n, maker_fee_base_units: 0n, tx_hash: null, matched_at: new Date(START_MS + minute * 60_000), mined_at: null, confirmed_at: null,
  };
}

const newTrade = fc.record({ market: fc.integer({ min: 0, max: 1 }), minute: fc.integer({ min: 0, max: 4 * 60 }), status: fc.constantFrom(...STATUSES), notional: fc.integer({ min: 1, max: 1_000_000 }) });
const step = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), trades: fc.array(newTrade, { minLength: 1, maxLength: 5 }) }),
  // Moves the picked trades (by index among those written so far) to a status, in one UPDATE.
  fc.record({ kind: fc.constant('update' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant('delete' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }) }),
  // The projection's statement: new trades and picked ones moved on, in one INSERT … ON CONFLICT DO UPDATE.
  fc.record({ kind: fc.constant('upsert' as const), trades: fc.array(newTrade, { maxLength: 3 }), picks: fc.array(fc.nat(), { maxLength: 3 }), status: fc.constantFrom(...STATUSES) }),
);

describe('market volumes kept by triggers on trades', () => {
  let store: Store;
  before(async () => {
    store = await openTestStore();
  });
  after(async () => { await store.close(); });

  const breaches = async () => (await volumesAgainstTrades(store.db, 10)).rows;

  it('equal the sums of the trades not FAILED, all-time and by hour, after any statements', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      await sql`TRUNCATE trades, market_volume_totals, market_volume_hours`.execute(store.db);
      const written: TradeRow[] = [];
      const picked = (picks: number[], status: string) => [...new Set(picks.map((i) => i % written.length))].map((i) => ({ ...written[i]!, status: status as TradeRow['status'] }));
      for (const s of steps) {
        if (s.kind === 'insert') {
          const rows = s.trades.map((t) => trade(t.market, t.minute, t.status, t.notional));
          await insertTrades(store.db, rows);
          written.push(...rows);
        } else if (s.kind === 'update' && written.length > 0) {
          const ids = picked(s.picks, s.status).map((t) => t.id);
          await sql`UPDATE trades SET status = ${s.status} WHERE id = ANY(${ids}::uuid[])`.execute(store.db);
          for (const t of written) if (ids.includes(t.id)) t.status = s.status;
        } else if (s.kind === 'delete' && written.length > 0) {
          const ids = picked(s.picks, 'any').map((t) => t.id);
          await sql`DELETE FROM trades WHERE id = ANY(${ids}::uuid[])`.execute(store.db);
          written.splice(0, written.length, ...written.filter((t) => !ids.includes(t.id)));
        } else if (s.kind === 'upsert') {
          const fresh = s.trades.map((t) => trade(t.market, t.minute, t.status, t.notional));
          const moved = written.length > 0 ? picked(s.picks, s.status) : [];
          if (fresh.length + moved.length === 0) continue;
          const { columns, arrays } = columnArrays([...fresh, ...moved], TRADE_COLUMN_TYPES);
          await sql`INSERT INTO trades (${columns}) SELECT * FROM unnest(${arrays}) ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status`.execute(store.db);
          for (const t of written) if (moved.some((m) => m.id === t.id)) t.status = s.status as TradeRow['status'];
          written.push(...fresh);
        }
      }
      assert.deepEqual(await breaches(), []);
      // And the sums are what the trades in hand add to (the audit's recomputation is not the only witness).
      const expected = new Map<string, bigint>();
      for (const t of written) if (t.status !== 'FAILED') expected.set(t.market_id, (expected.get(t.market_id) ?? 0n) + t.notional_base_units);
      const { rows } = await sql<{ market_id: string; v: string }>`SELECT market_id, volume_base_units::text AS v FROM market_volume_totals WHERE volume_base_units <> 0`.execute(store.db);
      assert.deepEqual(new Map(rows.map((r) => [r.market_id, BigInt(r.v)])), expected);
    }), { numRuns: 40 });
  });

  it('are filled from the trades already there when the migration runs', async () => {
    await sql`TRUNCATE trades, market_volume_totals, market_volume_hours`.execute(store.db);
    const untyped = store.db as unknown as Kysely<unknown>;
    await marketVolumes.down(untyped);
    await insertTrades(store.db, [trade(0, 5, 'CONFIRMED', 7), trade(0, 65, 'MATCHED', 11), trade(1, 5, 'FAILED', 13), trade(1, 6, 'MINED', 17)]);
    await marketVolumes.up(untyped);
    assert.deepEqual(await breaches(), []);
    const { rows } = await sql<{ market_id: string; hour: Date; v: string }>`SELECT market_id, hour, volume_base_units::text AS v FROM market_volume_hours ORDER BY market_id, hour`.execute(store.db);
    assert.deepEqual(rows.map((r) => [r.market_id, new Date(r.hour).getTime() - START_MS, r.v]), [[MARKETS[0], 0, '7'], [MARKETS[0], HOUR_MS, '11'], [MARKETS[1], 0, '17']]);
  });
});
