import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/contract/errors.ts';
import type { CreateOrderRequest } from '../../src/orders/order-entry.ts';
import { serverWithMarket } from '../helpers/market-server.ts';
import { callerOf, expectAuditClean, newTrader, orderBody, type Trader } from '../helpers/trader.ts';

/** One thing a trader does; a group of them is submitted in one turn, so they share journal records. */
type Op =
  | { kind: 'place'; who: number; outcome: 1 | 2; side: 'BUY' | 'SELL'; cents: number; size: number }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'split'; who: number; amount: number }
  | { kind: 'merge'; who: number }
  | { kind: 'credit'; who: number; amount: number };

const who = fc.nat(2);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('place' as const), who, outcome: fc.constantFrom(1 as const, 2 as const), side: fc.constantFrom('BUY' as const, 'SELL' as const), cents: fc.integer({ min: 1, max: 99 }), size: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), who, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('split' as const), who, amount: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('credit' as const), who, amount: fc.integer({ min: 1, max: 20 }) }) },
);
/** Groups of operations: each group is sent in one turn, the next once it is answered. */
const script = fc.array(fc.array(op, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 });

/**
 * Orders, cancels and balance moves mixed in the same journal records, in any order, through a
 * real server: a mistake shows as an error no caller should get (a command that throws fails its
 * whole record) or as tables whose locks, balances or supply the audit refuses, or which the
 * journal's replay does not reach.
 */
describe('engine: orders and balance moves in shared records (property)', () => {
  const world = serverWithMarket();
  let traders: Trader[];
  before(async () => {
    traders = await Promise.all([0, 1, 2].map(() => newTrader(world.server, { fund: '200' })));
  });

  it('every answer is a result or a refusal the caller can act on, and the ledger audit passes after every group', async () => {
    const { server, market } = world;
    const { engine, orderEntry } = server.ctx.trading;
    const account = (i: number) => traders[i]!.proxyWallet.toLowerCase();
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
          return () => engine.split({ account: account(o.who), marketId: market.id, amount: units(o.amount) });
        case 'merge':
          return () => engine.merge({ account: account(o.who), marketIds: [market.id] });
        case 'credit':
          return () => engine.credit({ account: account(o.who), amount: units(o.amount), reason: 'DEPOSIT', ref: 'property' });
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
            const expected = error instanceof AppError && error.statusCode < 500;
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
