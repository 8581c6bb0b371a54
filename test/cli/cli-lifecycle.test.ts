import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.ts';
import { adminClient, publishedMarkets, traderClient } from '../client/helpers.ts';
import { runProgram } from '../helpers/program.ts';
import { useCliFixture } from './pmx.ts';
import { BUILT_CLI } from '../helpers/build.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** Every command and subcommand of the program, with its full name. */
function commands(command: Command, prefix = ''): { name: string; command: Command }[] {
  return command.commands.flatMap((sub) => {
    const name = `${prefix}${sub.name()}`;
    return [{ name, command: sub }, ...commands(sub, `${name} `)];
  });
}

describe('the CLI: a market from creation to redemption, through child processes with --json', { skip: storeIndependent('the CLI') }, () => {
  const cli = useCliFixture('pmx-lifecycle-');
  const { pmx, json } = cli;


  it('creates, publishes, credits, trades, reads market data, resolves through the oracle and redeems', async () => {
    const event = await json(['events', 'create', 'Lifecycle event', '--market', 'Rain', '--publish']);
    const market = event.markets[0];
    const maker = await json(['login', '--store-key'], { WHO: 'maker' });
    const taker = await json(['login'], { WHO: 'taker' });
    await json(['credit', maker.address, '100']);
    const key = randomUUID();
    await json(['credit', taker.address, '100', '--idempotency-key', key]);
    assert.equal((await json(['credit', taker.address, '100', '--idempotency-key', key])).balance, '100', 'the same key credits once');
    await json(['order', 'buy', market.tokenId1, '0.6', '10'], { WHO: 'maker' });
    assert.equal((await json(['order', 'buy', market.tokenId2, '0.4', '10', '--type', 'FAK'], { WHO: 'taker' })).status, 'EXECUTED');
    await cli.server.ctx.trading.engine.settle();

    const trades = await json(['trades', '--market', market.id]);
    assert.deepEqual(trades.map((t: any) => [t.tokenId, t.side, t.price, t.size, t.status]), [[market.tokenId2, 0, '0.4', '10', 'CONFIRMED']]);
    const activity = await json(['trades', '--activity', '--event', event.id]);
    assert.deepEqual(activity.map((a: any) => [a.userId, a.side, Number(a.size)]), [[taker.userId, 'bought', 10]]);
    const history = await json(['history', market.tokenId1, '--interval', '1H', '--fidelity', '1']);
    assert.deepEqual(history.map((p: any) => p.p), ['0.6']);
    const holders = await json(['holders', market.slug]);
    assert.deepEqual(holders.outcome1.holders.map((h: any) => [h.userId, h.shares]), [[maker.userId, 10]]);
    const marketActivity = await json(['activity', market.id]);
    assert.deepEqual(marketActivity.map((a: any) => a.type), ['BUY', 'BUY']);
    const positions = await json(['event-positions', event.id, maker.userId, taker.userId]);
    assert.deepEqual(positions.map((u: any) => u.positions.map((p: any) => [p.tokenId, p.amount])), [[[market.tokenId1, '10']], [[market.tokenId2, '10']]]);
    assert.match((await pmx(['trades', '--market', market.id])).stdout, /Rain\s+No\s+BUY\s+0\.4\s+10\s+CONFIRMED/);

    assert.equal((await json(['oracle', 'status', market.id])).status, 'UNPROPOSED');
    assert.equal((await json(['oracle', 'propose', market.id, 'yes', '--operator'])).status, 'PROPOSED');
    assert.equal((await json(['oracle', 'dispute', market.id], { WHO: 'taker' })).status, 'DISPUTED');
    const decided = await json(['oracle', 'decide', market.id, 'YES']);
    assert.deepEqual([decided.status, decided.finalOutcome], ['RESOLVED', 'YES']);

    assert.deepEqual((await json(['redeem', '--list'], { WHO: 'maker' })).map((r: any) => r.marketId), [market.id]);
    const before = Number((await json(['balance'], { WHO: 'maker' })).collateral.balance);
    assert.deepEqual((await json(['redeem', '--all'], { WHO: 'maker' })).included, [market.id]);
    assert.equal(Number((await json(['balance'], { WHO: 'maker' })).collateral.balance), before + 10, 'YES pays 1 per token');
    assert.deepEqual((await json(['redeem', market.id], { WHO: 'taker' })).included, [market.id]);
    assert.deepEqual((await json(['redeem', '--all'], { WHO: 'taker' })).included, []);
  });

  it('streams confirmed trades with trades --follow --json until interrupted', async () => {
    const { event, markets: [market] } = await publishedMarkets(adminClient(cli.server));
    const follow = runProgram(BUILT_CLI, ['trades', '--follow', '--event', event.id, '--json'], { PMX_URL: cli.server.url, PMX_CONFIG: join(cli.dir, 'follower.json') });
    await follow.errorLine(/^following the trades of event /);
    const [maker, taker] = await Promise.all([traderClient(cli.server, '100'), traderClient(cli.server, '100')]);
    await maker.orders.place({ tokenId: market!.tokenId1, side: 'BUY', price: '0.25', size: '8' });
    await taker.orders.place({ tokenId: market!.tokenId2, side: 'BUY', price: '0.75', size: '8', type: 'FAK' });
    const row = JSON.parse(await follow.line(/^\{/));
    assert.deepEqual([row.marketId, row.side, Number(row.size), Number(row.price)], [market!.id, 'bought', 8, 0.75]);
    follow.interrupt();
    await follow.exit();
  });

  it('refuses bad input locally (exit 2) and passes server refusals on (exit 1)', async () => {
    await json(['login'], { WHO: 'someone' });
    const cases: [string[], number, RegExp, string?][] = [
      [['oracle', 'propose', '00000000-0000-4000-8000-000000000000', 'MAYBE', '--operator'], 2, /YES, NO or TIE/],
      [['redeem'], 2, /name market ids/, 'someone'],
      [['trades', '--limit', 'ten'], 2, /--limit must be a whole number/],
      [['book', '123', '--depth', 'ten'], 2, /--depth must be a whole number/],
      [['trades', '--user', '0x12'], 2, /--user must be an address/],
      // Commander's refusals are usage errors too.
      [['balance', '--bogus'], 2, /^error: unknown option '--bogus'/],
      [['events', 'list', '--statuss', 'ACTIVE'], 2, /\(Did you mean --status\?\)/],
      [['faucet'], 2, /^error: missing required argument 'amount'/],
      [['keys', 'all'], 2, /^error: too many arguments for 'keys'/],
      [['activity', '00000000-0000-4000-8000-000000000000', '--wallet', 'alice'], 2, /--wallet must be an address/],
      [['oracle', 'dispute', '00000000-0000-4000-8000-000000000000'], 2, /not logged in/],
      [['holders', 'no-such-market'], 1, /404 NOT_FOUND/],
      // A market is an id or a slug: a slug no market has is the server's 404.
      [['oracle', 'status', 'not-a-uuid'], 1, /404 NOT_FOUND/],
      [['history', '123', '--interval', '1D'], 1, /404 NOT_FOUND/],
    ];
    const results = await Promise.all(cases.map(([args, , , who = 'nobody']) => pmx(args, { WHO: who })));
    cases.forEach(([args, code, message], i) => {
      assert.equal(results[i]!.code, code, `${args.join(' ')}: ${results[i]!.stderr}`);
      assert.match(results[i]!.stderr, message);
    });
    // No server there: one line naming why, not a stack trace.
    const port = await closedPort();
    // A login saved for another exchange signs nothing here: said before any call.
    const elsewhere = await pmx(['balance'], { WHO: 'someone', PMX_URL: `http://127.0.0.1:${port}` });
    assert.equal(elsewhere.code, 2, elsewhere.stderr);
    assert.match(elsewhere.stderr, new RegExp(`logged in to ${cli.server.url}, not http://127\\.0\\.0\\.1:${port}`));
    const unreachable = await pmx(['events', 'list'], { PMX_URL: `http://127.0.0.1:${port}` });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, new RegExp(`^error: the exchange could not be reached \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)`));
    assert.equal(unreachable.stderr.trim().split('\n').length, 1, unreachable.stderr);
  });

  it('has examples in the --help of every command', () => {
    const all = commands(buildProgram());
    assert.ok(all.length > 20);
    for (const { name, command } of all) {
      let help = '';
      command.configureOutput({ writeOut: (text) => { help += text; } });
      command.outputHelp();
      assert.match(help, /Examples:\n {2}\$ .*pmx /, `pmx ${name} --help has no examples`);
    }
  });
});

/** A loopback port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return port;
}
