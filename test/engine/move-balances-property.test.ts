import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/contract/errors.ts';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { InsufficientBalanceError } from '../../src/settlement/types.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { callerOf, expectAuditClean, newTrader, orderBody, type Trader } from '../helpers/trader.ts';

const WORK_REFUSED = 'refused after crediting';

/** One thing a trader does; a group of them is submitted in one turn, so they share engine batches. */
type Op =
  | { kind: 'place'; who: number; outcome: 1 | 2; side: 'BUY' | 'SELL'; cents: number; size: number }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'split'; who: number; amount: number }
  | { kind: 'merge'; who: number }
  | { kind: 'credit'; who: number; amount: number }
  | { kind: 'failing-work'; who: number };

const who = fc.nat(2);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('place' as const), who, outcome: fc.constantFrom(1 as const, 2 as const), side: fc.constantFrom('BUY' as const, 'SELL' as const), cents: fc.integer({ min: 1, max: 99 }), size: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), who, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('split' as const), who, amount: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('credit' as const), who, amount: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('failing-work' as const), who }) },
);
/** Groups of operations: each group is sent in one turn, the next once it is answered. */
const script = fc.array(fc.array(op, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 });

/**
 * Orders, cancels and balance moves mixed in the same engine batches, in any order: the engine
 * holds the balance rows it reserves from and must forget them whenever work moves balances. A
 * mistake shows as a batch that fails on the ledger's CHECK (an error no caller should see) or as
 * a ledger whose locks, balances or supply the audit refuses.
 */
describe('engine: orders and balance moves in shared batches (property)', () => {
  let server: TestServer;
  let market: PublishedMarket;
  let traders: Trader[];
  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server)).markets[0]!;
    traders = await Promise.all([0, 1, 2].map(() => newTrader(server, { fund: '200' })));
  });
  after(async () => {
    await server.close();
  });

  it('every answer is a result or a refusal the caller can act on, and the ledger audit passes after every group', async () => {
    const { engine, orderEntry } = server.ctx.trading;
    const { settlement } = server.ctx;
    const account = (i: number) => traders[i]!.proxyWallet.toLowerCase();
    const tokens = { conditionId: market.conditionId, tokenId1: market.tokenId1, tokenId2: market.tokenId2 };
    const units = (n: number) => BigInt(n) * 1_000_000n;

    // Built ahead (they await the server's clock), then submitted without a turn in between.
    const prepare = async (o: Op): Promise<() => Promise<unknown>> => {
      const trader = traders[o.who]!;
      switch (o.kind) {
        case 'place': {
          const body = (await orderBody(server, trader, { tokenId: o.outcome === 1 ? market.tokenId1 : market.tokenId2, side: o.side, price: (o.cents / 100).toFixed(2), size: String(o.size), signed: false })) as unknown as CreateOrderRequest;
          return () => orderEntry.submit(callerOf(trader), body).then((outcome) => {
            if (!outcome.ok) throw outcome.error;
          });
        }
        case 'cancel': {
          const open = ((await trader.call('GET', '/orders/paginated?limit=100')).body as { data: { id: string }[] }).data;
          const target = open[o.pick % Math.max(1, open.length)];
          return target ? () => engine.cancel(trader.userId, target.id) : async () => undefined;
        }
        case 'split':
          return () => engine.moveBalances((tx) => settlement.split(tx, { account: account(o.who), market: tokens, amount: units(o.amount), ref: 'property' }));
        case 'merge':
          return () => engine.moveBalances((tx) => settlement.mergeBatch(tx, { account: account(o.who), markets: [tokens], ref: 'property' }));
        case 'credit':
          return () => engine.moveBalances((tx) => settlement.credit(tx, { account: account(o.who), amount: units(o.amount), reason: 'DEPOSIT', ref: 'property' }));
        case 'failing-work':
          return () => engine.moveBalances(async (tx) => {
            await settlement.credit(tx, { account: account(o.who), amount: units(1), reason: 'DEPOSIT', ref: 'property' });
            throw new Error(WORK_REFUSED);
          });
      }
    };

    await fc.assert(
      fc.asyncProperty(script, async (groups) => {
        for (const group of groups) {
          const sends = await Promise.all(group.map(prepare));
          const answers = await Promise.allSettled(sends.map((send) => send()));
          for (const answer of answers) {
            if (answer.status === 'fulfilled') continue;
            const error = answer.reason as unknown;
            const expected = error instanceof InsufficientBalanceError || (error instanceof AppError && error.statusCode < 500) || (error instanceof Error && error.message === WORK_REFUSED);
            assert.ok(expected, `an answer no caller should get: ${String((error as Error)?.stack ?? error)}`);
          }
          await expectAuditClean(server);
        }
        await engine.settle();
        await expectAuditClean(server);
      }),
      { numRuns: 15 },
    );
  });
});
