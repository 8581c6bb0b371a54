// The payer of the oracle's rewards on chain over a real store, the chain side recorded: what it
// pays at a start, what a durable reward's announcement pays, and that each is paid once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { OracleRewardsOnChain } from '../../src/conditional-tokens/oracle-rewards-on-chain.ts';
import { DomainEvents } from '../../src/events/domain-events.ts';
import { REWARD_TREASURY } from '../../src/settlement/accounts.ts';
import type { Store } from '../../src/store/database.ts';
import { openTestStore } from '../helpers/database.ts';

const WALLET_A = `0x${'a1'.repeat(20)}`;
const WALLET_B = `0x${'b2'.repeat(20)}`;
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** A ledger transaction of `kind` moving `amount` of collateral from the reward treasury to `to`, as the projection writes it. */
async function ledgerTransfer(store: Store, seq: number, kind: string, to: string, amount: bigint): Promise<string> {
  const txHash = hashOf(seq);
  await store.db.insertInto('ledger_transactions').values({ seq: BigInt(seq), tx_hash: txHash, kind, ref: `oracle:m${seq}`, created_at: new Date(), block_number: null, chain_tx_hash: null }).execute();
  await store.db.insertInto('ledger_entries').values([
    { tx_seq: BigInt(seq), idx: 0, account: REWARD_TREASURY, asset: 'collateral', amount: -amount, reason: kind },
    { tx_seq: BigInt(seq), idx: 1, account: to, asset: 'collateral', amount, reason: kind },
  ]).execute();
  return txHash;
}

describe('oracle rewards on chain', () => {
  let store: Store;
  const events = new DomainEvents();
  const paid: { to: string; amount: bigint }[] = [];
  let failNext = 0;
  const payer = () => new OracleRewardsOnChain({
    db: store.db,
    events,
    now: () => new Date(),
    logger: pino({ level: 'silent' }),
    pay: async (payment) => {
      if (failNext > 0) {
        failNext--;
        throw new Error('the chain did not answer');
      }
      paid.push(payment);
      return hashOf(1000 + paid.length);
    },
  });
  before(async () => (store = await openTestStore()));
  after(() => store.close());

  it('pays at a start every reward without a payout on chain, oldest first, and nothing twice', async () => {
    await ledgerTransfer(store, 1, 'ORACLE_REWARD', WALLET_A, 2_000_000n);
    await ledgerTransfer(store, 2, 'BOND_FORFEIT', WALLET_B, 5_000_000n);
    await ledgerTransfer(store, 3, 'ORACLE_REWARD', WALLET_B, 3_000_000n);
    const first = payer();
    first.start();
    await first.idle();
    first.stop();
    assert.deepEqual(paid, [{ to: WALLET_A, amount: 2_000_000n }, { to: WALLET_B, amount: 3_000_000n }]);
    const rows = await store.db.selectFrom('chain_payouts').select(['ledger_tx_hash', 'chain_tx_hash']).orderBy('ledger_tx_hash').execute();
    assert.deepEqual(rows, [{ ledger_tx_hash: hashOf(1), chain_tx_hash: hashOf(1001) }, { ledger_tx_hash: hashOf(3), chain_tx_hash: hashOf(1002) }]);

    const second = payer();
    second.start();
    await second.idle();
    second.stop();
    assert.equal(paid.length, 2, 'a second start pays nothing again');
  });

  it('pays an announced reward once, retrying a chain that failed', async () => {
    const running = payer();
    running.start();
    await running.idle();
    failNext = 1;
    const txHash = await ledgerTransfer(store, 4, 'ORACLE_REWARD', WALLET_A, 7_000_000n);
    const announced = { ledgerTxHash: txHash, account: WALLET_A, amount: 7_000_000n };
    events.publish('oracle-reward-paid', announced);
    events.publish('oracle-reward-paid', announced);
    // The retry's pause does not hold the process (a server's sockets do): the test does, meanwhile.
    const held = setInterval(() => {}, 1_000);
    await running.idle();
    clearInterval(held);
    running.stop();
    assert.deepEqual(paid.slice(2), [{ to: WALLET_A, amount: 7_000_000n }]);
    assert.equal(failNext, 0, 'the failed try was made');
  });
});
