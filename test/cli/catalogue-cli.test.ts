import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runProgram } from '../helpers/program.ts';
import { ADMIN_TOKEN } from '../helpers/server.ts';
import { adminClient } from '../client/helpers.ts';
import { useCliFixture } from './pmx.ts';
import { BUILT_CLI } from '../helpers/build.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** The bots quote at their own pace on a busy machine: the test's own timeout bounds the wait, not the SDK's 30 s. */
const NO_WAIT_LIMIT = { timeoutMs: Infinity };

describe('the CLI: categories, tags, events with markets, and the demo, through child processes', { skip: storeIndependent('the CLI') }, () => {
  const cli = useCliFixture('pmx-catalogue-');
  const { pmx, json } = cli;


  it('creates and lists categories and tags, then files an event under them by name and slug', async () => {
    const politics = await json(['categories', 'create', 'Politics', '--position', '2']);
    const hidden = await json(['categories', 'create', 'Hidden', '--position', '1', '--inactive']);
    assert.deepEqual([politics.name, politics.position, politics.active, hidden.active], ['Politics', 2, true, false]);
    assert.deepEqual((await json(['categories', 'list'])).map((c: any) => c.id), [hidden.id, politics.id]);
    const table = (await pmx(['categories', 'list'])).stdout.split('\n');
    assert.match(table[0]!, /^ID\s+NAME\s+POSITION\s+ACTIVE$/);
    assert.match(table[1]!, new RegExp(`^${hidden.id}\\s+Hidden\\s+1\\s+false$`));

    const tag = await json(['tags', 'create', 'elections', 'Elections']);
    const region = await json(['tags', 'create', 'us', 'United States', '--type', 'region']);
    assert.deepEqual([tag.slug, tag.label, tag.type, region.type], ['elections', 'Elections', 'topic', 'region']);
    assert.deepEqual((await json(['tags', 'list'])).map((t: any) => t.slug), ['elections', 'us']);

    const event = await json(['events', 'create', 'Who wins?', '--market', 'A', '--market', 'B', '--neg-risk', '--category', 'politics', hidden.id, '--tag', 'elections', region.id,
      '--reward', '2', '--proposal-bond', '50', '--liveness', '600', '--fee-bps', '15']);
    assert.equal(event.eventStatus, 'DRAFT');
    assert.deepEqual(event.categories.map((c: any) => c.id).sort(), [hidden.id, politics.id].sort());
    assert.deepEqual(event.tags.map((t: any) => t.id).sort(), [tag.id, region.id].sort());
    assert.deepEqual(event.markets.map((m: any) => [m.name, m.orderFeeRateBps]), [['A', 15], ['B', 15]]);
    const publicRead = await adminClient(cli.server).events.get(event.id).catch((error: unknown) => error);
    assert.equal((publicRead as { status?: number }).status, 404, 'a DRAFT event is not public');

    const draftMarket = await json(['events', 'add-market', event.id, 'C', '--outcomes', 'Up,Down', '--tick-size', '0.001']);
    assert.deepEqual([draftMarket.status, draftMarket.outcome1, draftMarket.outcome2, draftMarket.tickSize, draftMarket.tokenId1], ['DRAFT', 'Up', 'Down', '0.001', null]);
    const published = await json(['events', 'add-market', event.id, 'D', '--publish']);
    assert.equal(published.status, 'ACTIVE');
    assert.match(published.tokenId1, /^\d+$/);
    const live = await adminClient(cli.server).events.get(event.id);
    assert.deepEqual(live.markets.map((m) => [m.name, m.status]).sort(), [['A', 'ACTIVE'], ['B', 'ACTIVE'], ['C', 'ACTIVE'], ['D', 'ACTIVE']]);
  });

  it('refuses bad input locally (exit 2), passes server refusals on (exit 1), and needs the admin token', async () => {
    await json(['tags', 'create', 'taken', 'Taken']);
    const event = await json(['events', 'create', 'Refusals', '--market', 'X']);
    const cases: [string[], number, RegExp, Record<string, string>?][] = [
      [['categories', 'list'], 2, /admin commands need --admin-token or ADMIN_TOKEN/, { ADMIN_TOKEN: '' }],
      [['tags', 'create', 'x', 'X'], 2, /admin commands need/, { ADMIN_TOKEN: '' }],
      [['categories', 'list'], 1, /401 UNAUTHORIZED/, { ADMIN_TOKEN: 'wrong-token-0123456789abcdef' }],
      [['tags', 'list', '--admin-token', 'wrong-token-0123456789abcdef'], 1, /401 UNAUTHORIZED/],
      [['categories', 'create', 'X', '--position', 'first'], 2, /--position must be a whole number/],
      [['categories', 'create', ''], 1, /400 VALIDATION_FAILED/],
      [['tags', 'create', 'taken', 'Again'], 1, /409 CONFLICT/],
      [['tags', 'create', 'Not A Slug', 'X'], 1, /400 VALIDATION_FAILED/],
      [['events', 'create', 'E', '--market', 'M', '--category', 'No such category'], 2, /no category is named "No such category"/],
      [['events', 'create', 'E', '--market', 'M', '--tag', 'no-such-tag'], 2, /no tag has the slug "no-such-tag"/],
      [['events', 'create', 'E', '--market', 'M', '--liveness', '1h'], 2, /--liveness must be a whole number/],
      [['events', 'create', 'E', '--market', 'M', '--category', '00000000-0000-4000-8000-000000000000'], 1, /400/],
      [['events', 'add-market', event.id, 'Y', '--outcomes', 'Yes'], 2, /--outcomes takes two labels/],
      [['events', 'add-market', '00000000-0000-4000-8000-000000000000', 'Y'], 1, /404 NOT_FOUND/],
      [['events', 'add-market', event.id, 'Y', '--tick-size', '0.5'], 1, /400 VALIDATION_FAILED/],
      [['demo'], 2, /admin commands need/, { ADMIN_TOKEN: '' }],
    ];
    const results = await Promise.all(cases.map(([args, , , env]) => pmx(args, env)));
    cases.forEach(([args, code, message], i) => {
      assert.equal(results[i]!.code, code, `${args.join(' ')}: ${results[i]!.stderr}`);
      assert.match(results[i]!.stderr, message, args.join(' '));
    });
    assert.equal((await json(['tags', 'list'])).filter((t: any) => t.slug === 'x').length, 0, 'nothing made without the token');
  });

  it('seeds the demo into the running exchange once, and a re-run changes nothing', async () => {
    const first = await json(['demo']);
    assert.equal(first.seeded, true);
    assert.deepEqual(first.events.map((e: any) => [e.slug, e.eventStatus, e.markets.length]), [
      ['demo-bitcoin-above-150k', 'ACTIVE', 1], ['demo-presidential-election', 'ACTIVE', 4], ['demo-saturday-derby', 'ACTIVE', 3],
      // The hourly series: its markets come on the clock (this test server's clock is manual).
      ['demo-btc-usd-hourly', 'ACTIVE', 0],
    ]);
    const again = await pmx(['demo']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^demo catalogue already present\nEVENT\s+MARKET\s+NAME\s+TOKENID1\n/);
    assert.equal(again.stdout.trim().split('\n').length, 2 + 8, 'a row per demo market');
    assert.equal((await adminClient(cli.server).events.list({ limit: 100 })).data.filter((e) => e.slug.startsWith('demo-')).length, 4);
  });

  it('demo --liquidity quotes every demo market until interrupted, then cancels the quotes', async () => {
    const liquidity = runProgram(BUILT_CLI, ['demo', '--liquidity'], { PMX_URL: cli.server.url, PMX_CONFIG: join(cli.dir, 'demo.json'), ADMIN_TOKEN });
    await liquidity.errorLine(/^demo liquidity running/);
    const client = adminClient(cli.server);
    const tokenIds = (await client.events.list({ limit: 100 })).data.filter((e) => e.slug.startsWith('demo-')).flatMap((e) => e.markets.map((m) => m.tokenId1!));
    const books = client.watchBook(tokenIds);
    try {
      for (const tokenId of tokenIds) await books.until(tokenId, (book) => book.bestBid() !== undefined && book.bestAsk() !== undefined, NO_WAIT_LIMIT);
    } finally {
      books.close();
    }
    liquidity.interrupt();
    await liquidity.exit();
    for (const tokenId of tokenIds) assert.deepEqual(await client.book.get(tokenId).then((b) => [b.bids, b.asks]), [[], []]);
  });
});
