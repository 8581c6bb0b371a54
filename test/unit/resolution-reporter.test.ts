import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hex } from 'viem';
import type { PayoutReports } from '../../src/chain/index.ts';
import type { PayoutVector } from '../../src/chain/payout-reports.ts';
import { MarketStillSettlingError, ResolutionReporter } from '../../src/conditional-tokens/resolution-reporter.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import type { Db } from '../../src/store/database.ts';

/**
 * The resolution reporter waits for the market's trades that are still to be sent or mined before
 * it reports the payouts on chain (the exchange refuses a resolved market's fills), at most its
 * bound, with warnings; a redeem that needs the report waits briefly, then is refused.
 */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 5_000; !check(); await pause(5)) if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

function setup(timings: { longWaitMs?: number; maxWaitMs?: number; redeemWaitMs?: number } = {}) {
  const awaiting = new Map<string, number>([['m1', 2]]);
  const reported: Array<{ conditionId: Hex; payouts: PayoutVector }> = [];
  const warnings: string[] = [];
  const row = { id: 'm1', question_id: `0x${'01'.repeat(32)}`, condition_id: `0x${'02'.repeat(32)}` };
  const db = { selectFrom: () => ({ selectAll: () => ({ where: () => ({ executeTakeFirst: async () => row }) }) }) } as unknown as Db;
  const reports: PayoutReports = {
    report: async (market, payouts) => {
      reported.push({ conditionId: market.conditionId, payouts });
      return `0x${'ab'.repeat(32)}`;
    },
  };
  const events = new DomainEvents();
  const reporter = new ResolutionReporter({
    db,
    reads: { payoutOf: (id) => (id === 'm1' ? { payout1: 1, payout2: 0, den: 1 } : undefined), resolvedMarketIds: () => [], tradesAwaitingChain: (id) => awaiting.get(id) ?? 0 },
    reports,
    events,
    logger: { info: () => {}, warn: (_fields: unknown, message: string) => warnings.push(message) } as never,
    timings: { pollMs: 5, longWaitMs: 60_000, maxWaitMs: 60_000, redeemWaitMs: 30, ...timings },
  });
  return { awaiting, reported, warnings, events, reporter };
}

describe('resolution reporter: trades matched before a resolution settle before its report', () => {
  // The reporter's pauses do not hold a process (a server's sockets do): the test does, meanwhile.
  let hold: NodeJS.Timeout;
  before(() => {
    hold = setInterval(() => {}, 1_000);
  });
  after(() => clearInterval(hold));

  it('reports once the market has no trade waiting to be sent or mined', async () => {
    const { awaiting, reported, events, reporter } = setup();
    reporter.start();
    events.publish('market-resolved', { marketId: 'm1', outcome: 'YES' });
    await pause(50);
    assert.equal(reported.length, 0, 'two trades still to be mined');
    awaiting.set('m1', 1);
    await pause(30);
    assert.equal(reported.length, 0, 'one still to be mined');
    awaiting.set('m1', 0);
    await until(() => reported.length > 0, 'the report');
    assert.deepEqual(reported, [{ conditionId: `0x${'02'.repeat(32)}`, payouts: [1n, 0n] }]);
    reporter.stop();
  });

  it('says so when it waits long, and reports anyway at its bound', async () => {
    const { reported, warnings, events, reporter } = setup({ longWaitMs: 20, maxWaitMs: 300 });
    reporter.start();
    events.publish('market-resolved', { marketId: 'm1', outcome: 'YES' });
    await until(() => warnings.length > 0, 'the warning');
    assert.equal(reported.length, 0);
    assert.equal(warnings.filter((w) => w.includes('waits to be reported')).length, 1, 'one warning while it waits');
    await until(() => reported.length > 0, 'the report at the bound');
    assert.equal(reported.length, 1, 'reported at the bound');
    assert.equal(warnings.filter((w) => w.includes('though trades matched before it are not mined')).length, 1);
    reporter.stop();
  });

  it('a redeem needing the report waits for the trades, and is refused while they are still unsettled; once reported it needs nothing', async () => {
    const { awaiting, reported, reporter } = setup({ redeemWaitMs: 200 });
    await assert.rejects(reporter.reportNow('m1'), MarketStillSettlingError);
    assert.equal(reported.length, 0);
    const redeem = reporter.reportNow('m1');
    await pause(10);
    awaiting.set('m1', 0);
    await redeem;
    assert.equal(reported.length, 1, 'reported once the trades were mined, within the redeem\'s wait');
    awaiting.set('m1', 3);
    await reporter.reportNow('m1');
    assert.equal(reported.length, 1, 'known reported: nothing to wait for or send');
  });

  it('a stopped reporter does not report what it was waiting for', async () => {
    const { awaiting, reported, events, reporter } = setup();
    reporter.start();
    events.publish('market-resolved', { marketId: 'm1', outcome: 'YES' });
    await pause(20);
    reporter.stop();
    awaiting.set('m1', 0);
    await pause(30);
    assert.equal(reported.length, 0);
  });
});
