import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminClient } from '../client/helpers.ts';
import { useCliFixture } from './pmx.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** `pmx prices …`, `pmx templates …` and `pmx market --target` as child processes (EXTENSIONS.md section 13). */
describe('the CLI: reference prices, templates and price targets', { skip: storeIndependent('the CLI') }, () => {
  const cli = useCliFixture('pmx-prices-');
  const { pmx, json } = cli;
  const HOUR_MS = 3_600_000;

  it('posts and reads prices, runs a template, and shows a market target, the live price and the countdown', async () => {
    const admin = adminClient(cli.server);
    const now = cli.server.ctx.clock.nowMs();
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const posted = await json(['prices', 'post', 'BTC/USD', '97000.5', '--at', new Date(hour).toISOString()]);
    assert.deepEqual([posted.pair, posted.price, posted.source], ['BTC/USD', '97000.5', 'manual']);
    const read = await pmx(['prices', 'get', 'BTC/USD']);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout.trim(), `BTC/USD 97000.5 at ${new Date(hour).toISOString()} (manual)`);

    const template = await json(['templates', 'create', 'BTC hourly', '--slug', 'cli-btc-hourly', '--pair', 'BTC/USD', '--period', '1h', '--first-start', new Date(hour).toISOString(), '--lead', '0']);
    assert.deepEqual([template.slug, template.lead, template.enabled], ['cli-btc-hourly', 0, true]);
    assert.match((await pmx(['templates', 'list'])).stdout, /cli-btc-hourly\s+BTC\/USD\s+1h\s+0\s+true/);
    await admin.admin.clock({ advanceMs: 0 });
    const [market] = (await admin.events.get(template.eventId)).markets;

    const shown = await json(['prices', 'market', market!.id]);
    assert.deepEqual([shown.pair, shown.target, shown.reference], ['BTC/USD', '97000.5', '97000.5']);
    assert.match(shown.resolvesIn, /^(\d+h )?\d+m \d{2}s$/);
    const table = await pmx(['prices', 'market', market!.id]);
    assert.match(table.stdout, /^NAME\s+PAIR\s+TARGET\s+REFERENCE\s+RESOLVEAT\s+RESOLVESIN\n/);

    assert.equal((await json(['templates', 'disable', template.id])).enabled, false);
    assert.equal((await json(['templates', 'enable', template.id])).enabled, true);
    await json(['templates', 'disable', template.id]);

    // The operator's target of a manual CLOSE_PRICE market, printed with the live price and countdown.
    const event = await admin.admin.createEvent({
      name: 'ETH close', description: 'd', markets: [{ name: 'ETH up?', endDate: new Date(now + HOUR_MS).toISOString(), priceTargetConfig: { targetType: 'CLOSE_PRICE', pair: 'ETH/USD', source: 'manual' } }],
    });
    const ethId = (await admin.admin.publishEvent(event.id)).markets[0]!.id;
    const set = await pmx(['market', ethId, '--target', '3000']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /ETH\/USD target 3000, reference none, resolves \S+ \(in (\d+h )?\d+m \d{2}s\)/);
  });

  it('refuses bad input locally (exit 2), passes server refusals on (exit 1), and needs the admin token', async () => {
    const badPeriod = await pmx(['templates', 'create', 'x', '--slug', 'x', '--pair', 'BTC/USD', '--period', '2h', '--first-start', '2030-01-01T00:00:00Z']);
    assert.equal(badPeriod.code, 2);
    assert.match(badPeriod.stderr, /--period must be one of/);
    const badPrice = await pmx(['prices', 'post', 'BTC/USD', 'lots']);
    assert.equal(badPrice.code, 1);
    assert.match(badPrice.stderr, /^error 400 VALIDATION_FAILED/);
    const none = await pmx(['prices', 'get', 'DOGE/USD']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^error 404 NOT_FOUND/);
    const anonymous = await pmx(['templates', 'list'], { ADMIN_TOKEN: '' });
    assert.equal(anonymous.code, 2);
    assert.match(anonymous.stderr, /admin commands need --admin-token/);
    const admin = adminClient(cli.server);
    const plain = await admin.admin.publishEvent((await admin.admin.createEvent({ name: 'plain', description: 'd', markets: [{ name: 'm' }] })).id);
    const noTarget = await pmx(['prices', 'market', plain.markets[0]!.id]);
    assert.equal(noTarget.code, 2);
    assert.match(noTarget.stderr, /has no price target/);
  });
});
