// The oracle's payouts on chain over a real store, the chain side recorded: what a start makes,
// what a durable payout's announcement makes, that each is made once, and a refused one. Each
// payment is asked for under its ledger transaction's hash, which the payers send once (once-payments.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { PayoutRefusedError } from '../../src/chain/wallet-funding.ts';
import { OraclePayoutsOnChain } from '../../src/conditional-tokens/oracle-payouts-on-chain.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import { FEE_ACCOUNT, REWARD_TREASURY } from '../../src/settlement/accounts.ts';
import type { Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';

const WALLET_A = `0x${'a1'.repeat(20)}`;
const WALLET_B = `0x${'b2'.repeat(20)}`;
const REFUSING = `0x${'c3'.repeat(20)}`;
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** A ledger transaction of `kind` moving `amount` of collateral from `from` to `to`, as the projection writes it. */
async function ledgerTransfer(store: Store, seq: number, kind: string, from: string, to: string, amount: bigint): Promise<string> {
  const txHash = hashOf(seq);
  await store.db.insertInto('ledger_transactions').values({ seq: BigInt(seq), tx_hash: txHash, kind, ref: `oracle:m${seq}`, created_at: new Date(), block_number: null, chain_tx_hash: null }).execute();
  await store.db.insertInto('ledger_entries').values([
    { tx_seq: BigInt(seq), idx: 0, account: from, asset: 'collateral', amount: -amount, reason: kind },
    { tx_seq: BigInt(seq), idx: 1, account: to, asset: 'collateral', amount, reason: kind },
  ]).execute();
  return txHash;
}

describe('oracle payouts on chain', () => {
  let store: Store;
  const events = new DomainEvents();
  const made: unknown[] = [];
  let failNext = 0;
  const payouts = (catchUpPage?: number) => new OraclePayoutsOnChain({
    ...(catchUpPage ? { catchUpPage } : {}),
    db: store.db,
    events,
    now: () => new Date(),
    logger: pino({ level: 'silent' }),
    payers: {
      reward: async (payment) => {
        if (failNext > 0) {
          failNext--;
          throw new Error('the chain did not answer');
        }
        made.push({ reward: payment });
        return hashOf(1000 + made.length);
      },
      bond: async (payment) => {
        if (payment.from === REFUSING) throw new PayoutRefusedError('OperatorTradingOff');
        made.push({ bond: payment });
        return hashOf(1000 + made.length);
      },
    },
  });
  const run = async (work: (running: OraclePayoutsOnChain) => void = () => {}, catchUpPage?: number) => {
    const running = payouts(catchUpPage);
    running.start();
    work(running);
    // A retry's pause does not hold the process (a server's sockets do): the test does, meanwhile.
    const held = setInterval(() => {}, 1_000);
    await running.idle();
    clearInterval(held);
    running.stop();
  };
  before(async () => (store = await openTestStore()));
  after(() => store.close());

  it('makes at a start every payout without a record, oldest first: rewards from the operator, lost bonds from the loser to the winner and to the fees', async () => {
    await ledgerTransfer(store, 1, 'ORACLE_REWARD', REWARD_TREASURY, WALLET_A, 2_000_000n);
    await ledgerTransfer(store, 2, 'TRADE', WALLET_A, WALLET_B, 9_000_000n);
    await ledgerTransfer(store, 3, 'BOND_FORFEIT', WALLET_B, WALLET_A, 5_000_000n);
    await ledgerTransfer(store, 4, 'BOND_FORFEIT', WALLET_B, FEE_ACCOUNT, 5_000_000n);
    await run();
    assert.deepEqual(made, [
      { reward: { to: WALLET_A, amount: 2_000_000n, key: hashOf(1) } },
      { bond: { from: WALLET_B, to: WALLET_A, amount: 5_000_000n, key: hashOf(3) } },
      { bond: { from: WALLET_B, to: 'fees', amount: 5_000_000n, key: hashOf(4) } },
    ]);
    const rows = await store.db.selectFrom('chain_payouts').select(['ledger_tx_hash', 'account', 'chain_tx_hash']).orderBy('ledger_tx_hash').execute();
    assert.deepEqual(rows, [
      { ledger_tx_hash: hashOf(1), account: WALLET_A, chain_tx_hash: hashOf(1001) },
      { ledger_tx_hash: hashOf(3), account: WALLET_A, chain_tx_hash: hashOf(1002) },
      { ledger_tx_hash: hashOf(4), account: FEE_ACCOUNT, chain_tx_hash: hashOf(1003) },
    ]);
    await run();
    assert.equal(made.length, 3, 'a second start makes nothing again');
  });

  it('makes an announced payout once, retrying a chain that failed', async () => {
    const txHash = await ledgerTransfer(store, 5, 'ORACLE_REWARD', REWARD_TREASURY, WALLET_A, 7_000_000n);
    const announced = { ledgerTxHash: txHash, kind: 'ORACLE_REWARD' as const, from: REWARD_TREASURY, to: WALLET_A, amount: 7_000_000n };
    await run(() => {
      failNext = 1;
      events.publish('oracle-payout', announced);
      events.publish('oracle-payout', announced);
    });
    assert.deepEqual(made.slice(3), [{ reward: { to: WALLET_A, amount: 7_000_000n, key: txHash } }]);
    assert.equal(failNext, 0, 'the failed try was made');
  });

  it('leaves a refused payout without a record, and the start goes on to the next', async () => {
    await ledgerTransfer(store, 6, 'BOND_FORFEIT', REFUSING, WALLET_A, 4_000_000n);
    await ledgerTransfer(store, 7, 'ORACLE_REWARD', REWARD_TREASURY, WALLET_B, 1_000_000n);
    await run();
    assert.deepEqual(made.slice(4), [{ reward: { to: WALLET_B, amount: 1_000_000n, key: hashOf(7) } }]);
    const refused = await store.db.selectFrom('chain_payouts').select('ledger_tx_hash').where('ledger_tx_hash', '=', hashOf(6)).executeTakeFirst();
    assert.equal(refused, undefined);
  });

  it('reads on past a whole page of payouts that stay unpaid: the ones after it are made at the same start', async () => {
    await ledgerTransfer(store, 8, 'BOND_FORFEIT', REFUSING, WALLET_A, 1_000_000n);
    await ledgerTransfer(store, 9, 'BOND_FORFEIT', REFUSING, WALLET_B, 1_000_000n);
    await ledgerTransfer(store, 10, 'ORACLE_REWARD', REWARD_TREASURY, WALLET_A, 3_000_000n);
    // Pages of two: the refused payouts 6 (from the test before), 8 and 9 fill the first pages.
    await run(() => {}, 2);
    assert.deepEqual(made.slice(5), [{ reward: { to: WALLET_A, amount: 3_000_000n, key: hashOf(10) } }]);
  });
});
