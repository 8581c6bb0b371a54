import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { FencedError } from '../../src/engine/queue-full-error.ts';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { serverWithMarket } from '../helpers/market-server.ts';
import { holdPresenceOf } from '../helpers/node-presence.ts';
import { callerOf, expectAuditClean, newTrader, orderBody } from '../helpers/trader.ts';

/**
 * A journal record is appended in one statement that checks the engine lease itself
 * (src/engine/README.md "What is durable when"). A takeover before the append leaves
 * the record applied in memory and written nowhere: its callers get 503 and the node steps down.
 */
describe('a journal append whose lease passed on', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL): PGlite has no engine lease' }, () => {
  // The lease is renewed every FAILOVER_TIMEOUT_MS / 5: at the default (a second), a renewal that
  // ran between the test's takeover and its order deposed the node before the append could be
  // fenced (one CI run). Ten minutes keeps the timer out of the test, so the append meets the
  // takeover first, as a leader paused at that moment would.
  const world = serverWithMarket({ FAILOVER_TIMEOUT_MS: '600000' });

  it('writes nothing, answers 503, and the node steps down', async () => {
    const { server, market } = world;
    const trader = await newTrader(server, { fund: '10' });
    const { orderEntry } = server.ctx.trading;
    const buy = async (price: string) => (await orderBody(server, trader, { tokenId: market.tokenId1, side: 'BUY', price, size: '10', signed: false })) as unknown as CreateOrderRequest;
    const [kept, refused] = [await buy('0.4'), await buy('0.3')];
    const placed = await orderEntry.submit(callerOf(trader), kept);
    assert.ok(placed.ok);
    assert.equal(server.ctx.leadership.role, 'leader');
    // The tables are the journal's projection, written after the answer: this node projects the
    // acknowledged record before the takeover (after it, the next engine node would).
    await server.ctx.trading.engine.tablesHoldAll();

    // Another node (alive: its presence lock held) takes the engine over; this node learns it only at its next write.
    const releaseOther = await holdPresenceOf({ db: server.ctx.store.db, url: server.ctx.config.databaseUrl }, 'another node');
    after(releaseOther);
    await sql`UPDATE engine_leadership SET token = token + 1, holder = 'another node', url = 'http://127.0.0.1:9', renewed_at = clock_timestamp()`.execute(server.ctx.store.db);
    const error = await orderEntry.submit(callerOf(trader), refused).catch((caught: unknown) => caught);
    assert.ok(error instanceof FencedError, `refused as fenced: ${String(error)}`);
    assert.equal(error.statusCode, 503);
    assert.equal(server.ctx.leadership.role, 'follower');

    const stored = await server.ctx.store.db.selectFrom('orders').select('price_micros').where('user_id', '=', trader.userId).execute();
    assert.deepEqual(stored.map((row) => row.price_micros), [400_000n], 'only the order answered before the takeover is stored');
    const collateral = await server.ctx.store.db.selectFrom('ledger_balances').select('locked').where('account', '=', trader.proxyWallet.toLowerCase()).where('asset', '=', 'collateral').executeTakeFirstOrThrow();
    assert.equal(BigInt(collateral.locked), 4_000_000n, "only that order's reservation is locked");
    await expectAuditClean(server);
  });
});
