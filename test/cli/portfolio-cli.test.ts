import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useCliFixture } from './pmx.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

const DAY_MS = 86_400_000;

/**
 * Positions, merge and rewards from the shell, through child processes: the maker's BUY token1
 * 10 @ 0.6 rests and the taker's BUY token2 4 @ 0.4 (FAK) mints 4 of each; the maker then splits 3.
 */
describe('the CLI: positions, merge and rewards', { skip: storeIndependent('the CLI') }, () => {
  const cli = useCliFixture('pmx-portfolio-cli-', { LOG_LEVEL: 'error' });
  const { pmx, json } = cli;
  let market: { id: string; tokenId1: string; tokenId2: string; name: string };

  before(async () => {
    market = (await json(['events', 'create', 'Portfolio CLI event', '--market', 'Sun', '--publish'])).markets[0];
    const [maker, taker] = await Promise.all([json(['login'], { WHO: 'maker' }), json(['login'], { WHO: 'taker' })]);
    await Promise.all([json(['credit', maker.address, '100']), json(['credit', taker.address, '100'])]);
    assert.equal((await json(['order', 'buy', market.tokenId1, '0.6', '10'], { WHO: 'maker' })).status, 'PENDING');
    assert.equal((await json(['order', 'buy', market.tokenId2, '0.4', '4', '--type', 'FAK'], { WHO: 'taker' })).status, 'EXECUTED');
    await cli.server.ctx.trading.engine.settle();
    await json(['split', market.id, '3'], { WHO: 'maker' });
  });

  it('prints the positions as JSON and as a table, with the paging and sorting flags', async () => {
    const page = await json(['positions'], { WHO: 'maker' });
    assert.equal(page.total, 2);
    // Token1: 4 bought at 0.6 and 3 split at 0.5; token2: 3 split at 0.5, now at 0.4 (the complement of the trade).
    assert.deepEqual(page.data.map((p: any) => [p.tokenId, p.amount, p.latest, p.current]).sort(), [[market.tokenId1, '7', '0.6', '4.2'], [market.tokenId2, '3', '0.4', '1.2']].sort());
    const cheapest = await json(['positions', '--sort', 'current', '--order', 'asc', '--limit', '1'], { WHO: 'maker' });
    assert.deepEqual([cheapest.limit, cheapest.data.map((p: any) => p.tokenId)], [1, [market.tokenId2]]);
    const table = await pmx(['positions'], { WHO: 'maker' });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /MARKET\s+OUTCOME\s+AMOUNT\s+AVGPRICE\s+LATEST\s+INITIAL\s+CURRENT\s+RETURN/);
    assert.match(table.stdout, /Sun\s+\S+\s+7\s/);
    assert.match(table.stdout, /rows 1-2 of 2/);

    const badLimit = await pmx(['positions', '--limit', 'ten'], { WHO: 'maker' });
    assert.deepEqual([badLimit.code, /--limit must be a whole number/.test(badLimit.stderr)], [2, true]);
    const badSort = await pmx(['positions', '--sort', 'size'], { WHO: 'maker' });
    assert.deepEqual([badSort.code, /400 VALIDATION_FAILED/.test(badSort.stderr)], [1, true]);
    const loggedOut = await pmx(['positions'], { WHO: 'nobody' });
    assert.deepEqual([loggedOut.code, /not logged in/.test(loggedOut.stderr)], [2, true]);
  });

  it('lists the mergeable markets and merges them all', async () => {
    assert.deepEqual((await json(['merge', '--list'], { WHO: 'maker' })).map((p: any) => p.marketId), [market.id]);
    const merged = await json(['merge', '--all'], { WHO: 'maker' });
    assert.deepEqual([merged.included, merged.excluded], [[market.id], []]);
    assert.equal((await pmx(['merge', '--all'], { WHO: 'maker' })).stdout.trim(), 'nothing to merge');
    const nothingNamed = await pmx(['merge'], { WHO: 'maker' });
    assert.deepEqual([nothingNamed.code, /name market ids/.test(nothingNamed.stderr)], [2, true]);
    assert.deepEqual((await json(['positions'], { WHO: 'maker' })).data.map((p: any) => [p.tokenId, p.amount]), [[market.tokenId1, '4']]);
  });

  it("configures rewards as the operator and reads a trader's summary, history and claim", async () => {
    const tomorrow = new Date(Math.ceil((cli.server.ctx.clock.nowMs() + 1) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    const pool = await json(['rewards', 'config', market.id, '--reward', '14.4', '--max-distance', '0.05', '--min-size', '1', '--date', tomorrow]);
    assert.deepEqual([pool.marketId, pool.rewardUsdc, pool.rewardStatus], [market.id, '14.400000', 'SCHEDULED']);
    assert.deepEqual(await json(['rewards', 'treasury', '250']), { balance: '250' });
    assert.deepEqual(await json(['rewards', 'pause']), { paused: true });
    assert.deepEqual(await json(['rewards', 'pause', '--resume']), { paused: false });

    const summary = await json(['rewards', 'summary'], { WHO: 'maker' });
    assert.deepEqual([summary.claimableUsdc, summary.canClaim, summary.todayByMarket], ['0.000000', false, []]);
    const human = await pmx(['rewards', 'summary'], { WHO: 'maker' });
    assert.match(human.stdout, /claimable 0\.000000 USDC .*nothing to claim yet/);
    assert.deepEqual((await json(['rewards', 'history'], { WHO: 'maker' })).data, []);
    assert.equal((await json(['rewards', 'claim'], { WHO: 'maker' })).outcome, 'nothing-to-claim');

    const noToken = await pmx(['rewards', 'treasury', '5'], { ADMIN_TOKEN: '' });
    assert.deepEqual([noToken.code, /admin commands need/.test(noToken.stderr)], [2, true]);
    const badBoost = await pmx(['rewards', 'config', market.id, '--reward', '1', '--max-distance', '0.05', '--min-size', '1', '--boost', 'soon']);
    assert.deepEqual([badBoost.code, /--boost takes start,end,multiplier/.test(badBoost.stderr)], [2, true]);
    const refused = await pmx(['rewards', 'config', market.id, '--reward', '1', '--max-distance', '1.5', '--min-size', '1', '--date', tomorrow]);
    assert.deepEqual([refused.code, /400 VALIDATION_FAILED/.test(refused.stderr)], [1, true]);
  });
});
