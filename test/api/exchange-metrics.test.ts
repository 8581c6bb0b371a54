import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { get } from '../helpers/http.ts';
import { metricSample } from '../helpers/metrics.ts';
import { TEST_CHAIN } from '../helpers/server.ts';
import { placeOrder } from '../helpers/trader.ts';
import { useTwoTraders } from '../helpers/two-traders.ts';
import { connectInbox, type Inbox } from '../realtime/helpers.ts';
import { projectPath } from '../../src/build-output.ts';

describe('exchange metrics in /metrics', () => {
  const world = useTwoTraders();
  let watcher: Inbox | undefined;
  after(() => watcher?.close());

  const scrape = async () => {
    const response = await get(`${world.server.url}/metrics`);
    assert.equal(response.status, 200);
    return String(response.body);
  };

  it('counts orders, matches, trades by status, engine batches, books and sockets after a trade', async () => {
    const { server, alice, bob, event } = world;
    const market = event.markets[0]!;
    watcher = await connectInbox(server.url);
    watcher.emit('orderbook-market-connect', [market.tokenId1]);
    await watcher.expect('orderbook');

    assert.equal((await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '10' })).status, 200);
    assert.equal((await placeOrder(server, alice, { tokenId: market.tokenId1, side: 'BUY', price: '0.3', size: '10' })).status, 200);
    const crossing = await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '5', postOnly: true });
    assert.equal(crossing.body.code, 'POST_ONLY_WOULD_CROSS');
    assert.equal((await placeOrder(server, bob, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '5' })).status, 200);
    await server.ctx.trading.engine.settle();
    await server.ctx.trading.engine.settle();
    // Book changes go out in frames: the levels gauge counts what was published, so wait for the
    // watcher to get the change that leaves the REST book.
    const rest = await get(server.api(`/order-book/book?token_id=${market.tokenId1}`));
    for (let message = await watcher.next(); !(message.event === 'orderbook-price-change' && (message.payload as { hash: string }).hash === rest.body.hash); message = await watcher.next());

    const text = await scrape();
    assert.equal(metricSample(text, 'pmx_orders_total', { result: 'accepted' }), 3);
    assert.equal(metricSample(text, 'pmx_orders_total', { result: 'refused', code: 'POST_ONLY_WOULD_CROSS' }), 1);
    assert.equal(metricSample(text, 'pmx_matches_total'), 1);
    assert.equal(metricSample(text, 'pmx_trade_updates_total', { status: 'MATCHED' }), 1);
    assert.equal(metricSample(text, 'pmx_trade_updates_total', { status: 'MINED' }), 1);
    assert.equal(metricSample(text, 'pmx_trade_updates_total', { status: 'CONFIRMED' }), 1);
    assert.ok(metricSample(text, 'pmx_engine_batch_commands_count')! >= 4);
    assert.ok(metricSample(text, 'pmx_engine_batch_commands_sum')! >= 4);
    assert.equal(metricSample(text, 'pmx_engine_batch_duration_seconds_count'), metricSample(text, 'pmx_engine_batch_commands_count'));
    if (TEST_CHAIN === 'none') {
      // Rounds the timer started may share a batch with the two above.
      assert.ok(metricSample(text, 'pmx_engine_settlement_batch_duration_seconds_count')! >= 1, 'the rounds settled above');
    } else {
      // On a chain no simulated round runs: the trade settled through the chain's reports.
      assert.equal(metricSample(text, 'pmx_engine_settlement_batch_duration_seconds_count') ?? 0, 0);
    }
    assert.ok((metricSample(text, 'pmx_engine_settlement_batch_duration_seconds_count') ?? 0) < metricSample(text, 'pmx_engine_batch_commands_count')!, 'the order batches ran no round');
    assert.ok(metricSample(text, 'pmx_engine_queue_depth')! >= 0, 'the engine timers may have a command waiting');
    assert.equal(metricSample(text, 'pmx_engine_projection_lag_commands'), 0, 'a settlement round brings the tables up to the journal first');
    assert.equal(metricSample(text, 'pmx_settlement_unsettled_trades'), 0, 'the trade is CONFIRMED');
    assert.equal(metricSample(text, 'pmx_settlement_oldest_unsettled_seconds'), 0);
    if (TEST_CHAIN === 'embedded') {
      // The chain's gauges (src/api/ops/chain-metrics.ts): the anvil answers, and each account paying gas has some.
      assert.equal(metricSample(text, 'pmx_chain_up'), 1);
      assert.ok(metricSample(text, 'pmx_chain_block_number')! > 0);
      for (const account of ['operator', 'settlement', 'neg-risk settlement']) assert.ok(metricSample(text, 'pmx_chain_gas_balance', { account })! > 0, account);
    } else assert.equal(metricSample(text, 'pmx_chain_up'), undefined, 'no chain, no chain gauges');
    assert.equal(metricSample(text, 'pmx_books'), 1);
    // Left: alice's bid of 5 at 0.4 and her bid of 10 at 0.3, two levels.
    assert.equal(metricSample(text, 'pmx_book_levels'), 2);
    assert.equal(metricSample(text, 'pmx_open_orders'), 2);
    assert.equal(metricSample(text, 'pmx_socket_connections', { namespace: '/' }), 1);
    assert.equal(metricSample(text, 'pmx_socket_connections', { namespace: '/user' }), 0);
    assert.equal(metricSample(text, 'pmx_socket_messages_total', { namespace: '/', direction: 'in' }), 1);
    // Frames may merge the three orders' book changes into fewer.
    assert.ok(metricSample(text, 'pmx_socket_messages_total', { namespace: '/', direction: 'out' })! >= 3, 'the snapshot, a book change and the last trade price at least');
    // PostgreSQL's connection pool (src/api/ops/store-metrics.ts); PGlite has none.
    if (process.env.DATABASE_URL) {
      assert.ok(metricSample(text, 'pmx_store_connections', { state: 'idle' })! + metricSample(text, 'pmx_store_connections', { state: 'busy' })! >= 1);
      assert.equal(metricSample(text, 'pmx_store_waiting'), 0);
      assert.equal(metricSample(text, 'pmx_store_statements_timed_out_total'), 0);
    } else assert.equal(metricSample(text, 'pmx_store_connections', { state: 'idle' }), undefined);
  });

  it('serves the series the Grafana dashboard and the alert rules read', async () => {
    const dashboard = JSON.parse(await readFile(projectPath('ops/grafana/pmx.json'), 'utf8'));
    const panels: string[] = dashboard.panels.flatMap((panel: { targets?: { expr: string }[] }) => (panel.targets ?? []).map((t) => t.expr));
    const rules: string[] = parse(await readFile(projectPath('ops/prometheus/alerts.yml'), 'utf8')).groups.flatMap((group: { rules: { expr: string }[] }) => group.rules.map((rule) => rule.expr));
    const text = await scrape();
    for (const [what, expressions] of [['the dashboard', panels], ['the alert rules', rules]] as const) {
      const names = new Set(expressions.flatMap((expr) => expr.match(/\bpmx_[a-z_]+|\bhttp_request_duration_seconds_[a-z]+/g) ?? []));
      // PostgreSQL's connection pool exists with DATABASE_URL only (src/api/ops/store-metrics.ts), the chain's gauges on a chain (chain-metrics.ts).
      const served = [...names].filter((name) => (process.env.DATABASE_URL || !name.startsWith('pmx_store_')) && (TEST_CHAIN !== 'none' || !name.startsWith('pmx_chain_')));
      assert.ok(served.length >= 8, what);
      for (const name of served) assert.ok(text.includes(`\n${name}`), `${what} read ${name}, which /metrics does not serve`);
    }
  });
});
