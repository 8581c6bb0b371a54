// Payments of the operator's side made at most once per ledger move, over a real anvil and a real
// store: the crash between a payment's mining and its caller's record, between the payment's
// record and its sending, a record whose nonce another transaction took, and two nodes paying one
// move at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getAddress, parseGwei, parseTransaction, type Address } from 'viem';
import { deployExchangeContracts, TEMPLATE_DEPLOYER_KEY, type ChainDeployment } from '../../src/chain/deployment.ts';
import { PaymentConflictError, sendOnce, type PaymentIntents } from '../../src/chain/once-payments.ts';
import { ChainOperator } from '../../src/chain/operator.ts';
import { operatorPayers } from '../../src/chain/wallet-funding.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { paymentIntentsIn } from '../../src/store/chain-payment-intents-repository.ts';
import type { Store } from '../../src/store/database.ts';
import { pooledTransaction, startAnvil, type Anvil } from '../helpers/anvil.ts';
import { openTestStore } from '../helpers/database.ts';

describe('payments sent once per ledger move (chain/once-payments.ts)', () => {
  let anvil: Anvil;
  let store: Store;
  let deployment: ChainDeployment;
  /** The operator's side pays as on the embedded chain: minted. */
  const rewardPayer = (intents: PaymentIntents) => operatorPayers({ kind: 'embedded', operator, deployed: deployment.contracts }, intents)!.reward;
  let operator: ChainOperator;
  let wallets = 0;

  before(async () => {
    [anvil, store] = await Promise.all([startAnvil(), openTestStore()]);
    deployment = await deployExchangeContracts(anvil.rpcUrl, anvil.chain.id, 'PMX Exchange');
    operator = new ChainOperator(() => anvil.rpcUrl, anvil.chain.id, TEMPLATE_DEPLOYER_KEY);
  });
  after(async () => {
    await anvil.stop();
    await store.close();
  });

  const newWallet = (): Address => getAddress(`0x${(++wallets).toString(16).padStart(40, '7')}`);
  /** The call the operator's side pays with on the embedded chain: the collateral minted to the wallet. */
  const mintCall = (wallet: Address, amount: bigint) => ({ address: deployment.contracts.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [wallet, amount] });
  const collateralOf = (wallet: Address) => anvil.publicClient.readContract({ address: deployment.contracts.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [wallet] }) as Promise<bigint>;
  const key = () => `0x${wallets.toString(16).padStart(64, 'e')}`;
  /** The store's records, with a crash right after the next attempt's record (durable, the transaction not sent) when asked. */
  function intents() {
    const stored = paymentIntentsIn(store.db);
    const control = { crashAfterSave: false };
    const wrapped: PaymentIntents = {
      find: (k) => stored.find(k),
      addVersion: (k, tx) => stored.addVersion(k, tx),
      async startAttempt(k, version, tx) {
        if (!(await stored.startAttempt(k, version, tx))) return false;
        if (control.crashAfterSave) {
          control.crashAfterSave = false;
          throw new Error('crashed after the record');
        }
        return true;
      },
    };
    return { wrapped, control };
  }

  it('pays, and asked again for the same move (its caller crashed before recording it), answers the mined payment without paying again', async () => {
    const { wrapped } = intents();
    const pay = rewardPayer(wrapped);
    const wallet = newWallet();
    const first = await pay({ to: wallet.toLowerCase(), amount: 5_000_000n, key: key() });
    const again = await pay({ to: wallet.toLowerCase(), amount: 5_000_000n, key: key() });
    assert.equal(again, first);
    assert.equal(await collateralOf(wallet), 5_000_000n);
    const receipt = await anvil.publicClient.getTransactionReceipt({ hash: first });
    assert.equal(receipt.status, 'success');
  });

  it('sends the recorded transaction itself when the crash came between the record and the send', async () => {
    const { wrapped, control } = intents();
    const pay = rewardPayer(wrapped);
    const wallet = newWallet();
    control.crashAfterSave = true;
    await assert.rejects(pay({ to: wallet.toLowerCase(), amount: 3_000_000n, key: key() }), /crashed after the record/);
    assert.equal(await collateralOf(wallet), 0n, 'nothing was sent');
    const [recorded] = await wrapped.find(key());
    assert.ok(recorded);
    assert.equal(await pay({ to: wallet.toLowerCase(), amount: 3_000_000n, key: key() }), recorded.hash, 'the same bytes, the same hash');
    assert.equal(await collateralOf(wallet), 3_000_000n);
  });

  it('refuses a key asked for another amount or recipient, sending nothing, whether its payment was mined or only recorded', async () => {
    const { wrapped, control } = intents();
    const pay = rewardPayer(wrapped);
    const [paid, other] = [newWallet(), newWallet()];
    const minedKey = key();
    await pay({ to: paid.toLowerCase(), amount: 2_000_000n, key: minedKey });
    await assert.rejects(pay({ to: paid.toLowerCase(), amount: 2_000_001n, key: minedKey }), PaymentConflictError);
    await assert.rejects(pay({ to: other.toLowerCase(), amount: 2_000_000n, key: minedKey }), PaymentConflictError);
    const recorded = newWallet();
    control.crashAfterSave = true;
    await assert.rejects(pay({ to: recorded.toLowerCase(), amount: 1_000_000n, key: key() }), /crashed after the record/);
    await assert.rejects(pay({ to: recorded.toLowerCase(), amount: 9_000_000n, key: key() }), PaymentConflictError);
    assert.deepEqual([await collateralOf(paid), await collateralOf(other), await collateralOf(recorded)], [2_000_000n, 0n, 0n]);
    await pay({ to: recorded.toLowerCase(), amount: 1_000_000n, key: key() });
    assert.equal(await collateralOf(recorded), 1_000_000n);
  });

  it('waits for the recorded transaction when it is still in the pool (sent before the crash, not mined yet)', async () => {
    const { wrapped } = intents();
    const pay = rewardPayer(wrapped);
    const wallet = newWallet();
    const pendingKey = key();
    const call = mintCall(wallet, 4_000_000n);
    await anvil.testClient.setAutomine(false);
    try {
      // The payment recorded and sent, then the process gone before its receipt.
      const recorded = await operator.exclusive((chain) => chain.sign(call));
      assert.ok(await wrapped.startAttempt(pendingKey, 0, recorded));
      await anvil.publicClient.request({ method: 'eth_sendRawTransaction', params: [recorded.raw] });
      const paying = pay({ to: wallet.toLowerCase(), amount: 4_000_000n, key: pendingKey });
      // The node already has it ("transaction already imported"): the payer waits for its block.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await anvil.testClient.mine({ blocks: 1 });
      assert.equal(await paying, recorded.hash);
    } finally {
      await anvil.testClient.setAutomine(true);
    }
    assert.equal(await collateralOf(wallet), 4_000_000n);
  });

  it('signs a new payment when the recorded one can never be mined: another transaction took its nonce', async () => {
    const { wrapped, control } = intents();
    const pay = rewardPayer(wrapped);
    const wallet = newWallet();
    const stuckKey = key();
    control.crashAfterSave = true;
    await assert.rejects(pay({ to: wallet.toLowerCase(), amount: 2_000_000n, key: stuckKey }), /crashed after the record/);
    const [stuck] = await wrapped.find(stuckKey);
    // Another payment goes first with the same nonce.
    const other = newWallet();
    await pay({ to: other.toLowerCase(), amount: 1n, key: key() });
    const paid = await pay({ to: wallet.toLowerCase(), amount: 2_000_000n, key: stuckKey });
    assert.notEqual(paid, stuck!.hash);
    assert.equal(await collateralOf(wallet), 2_000_000n);
    assert.deepEqual((await wrapped.find(stuckKey)).map((v) => v.hash), [stuck!.hash, paid], 'the record keeps the attempt that never ran, then the payment that was made');
  });

  it("with callMayChange (a bond's fee half, to whoever receives fees), pays the new call once the recorded attempt can never be mined", async () => {
    const { wrapped, control } = intents();
    const pay = rewardPayer(wrapped);
    const [before, after] = [newWallet(), newWallet()];
    const movedKey = key();
    control.crashAfterSave = true;
    await assert.rejects(pay({ to: before.toLowerCase(), amount: 2_000_000n, key: movedKey }), /crashed after the record/);
    await pay({ to: newWallet().toLowerCase(), amount: 1n, key: key() });
    await assert.rejects(operator.exclusive((chain) => sendOnce(chain, wrapped, movedKey, mintCall(after, 2_000_000n))), PaymentConflictError);
    await operator.exclusive((chain) => sendOnce(chain, wrapped, movedKey, mintCall(after, 2_000_000n), { callMayChange: true }));
    assert.deepEqual([await collateralOf(before), await collateralOf(after)], [0n, 2_000_000n]);
  });

  it('pays once when two nodes pay the same move at once, each having read that its first attempt can never be mined', async () => {
    const wallet = newWallet();
    const twoKey = key();
    const first = intents();
    first.control.crashAfterSave = true;
    await assert.rejects(rewardPayer(first.wrapped)({ to: wallet.toLowerCase(), amount: 7_000_000n, key: twoKey }), /crashed after the record/);
    await rewardPayer(first.wrapped)({ to: newWallet().toLowerCase(), amount: 1n, key: key() });
    // Two nodes on the operator's key, over one store: each reads the record before either signs.
    const stored = paymentIntentsIn(store.db);
    let reads = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    const node = (): PaymentIntents => {
      let waited = false;
      return {
        ...stored,
        async find(k) {
          const versions = await stored.find(k);
          if (!waited) {
            waited = true;
            if (++reads === 2) release();
            await bothRead;
          }
          return versions;
        },
      };
    };
    // The second node's cap under the first's fees, so that their new attempts differ in bytes.
    const { maxFeePerGas } = await anvil.publicClient.estimateFeesPerGas();
    const other = new ChainOperator(() => anvil.rpcUrl, anvil.chain.id, TEMPLATE_DEPLOYER_KEY, { maxFeePerGas: maxFeePerGas - 1n });
    const otherPayer = operatorPayers({ kind: 'embedded', operator: other, deployed: deployment.contracts }, node())!.reward;
    const payment = { to: wallet.toLowerCase(), amount: 7_000_000n, key: twoKey };
    const [paidHere, paidThere] = await Promise.all([rewardPayer(node())(payment), otherPayer(payment)]);
    assert.equal(paidHere, paidThere, 'both answer the one payment');
    assert.equal(await collateralOf(wallet), 7_000_000n, 'paid once');
    const versions = await stored.find(twoKey);
    assert.equal(versions.length, 2, 'the attempt that never ran and one new attempt: the other node recorded none');
    assert.equal(versions[1]!.hash, paidHere);
  });

  it('replaces a payment the base fee passed in the pool, records every version before sending it, never above the cap, and pays once', async () => {
    const { wrapped } = intents();
    const wallet = newWallet();
    const stuckKey = key();
    await anvil.testClient.setAutomine(false);
    try {
      // A base fee far above the tip (about 1 gwei), as on a busy public chain, so that fees follow it.
      await anvil.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('100') });
      await anvil.testClient.mine({ blocks: 1 });
      const paying = (async () => {
        // The cap: under the market's estimate once the base fee has risen tenfold (twice the base
        // fee), over that base fee once a block has lowered it by 12.5%.
        const cap = parseGwei('100') * 2n * 9n;
        const replacing = new ChainOperator(() => anvil.rpcUrl, anvil.chain.id, TEMPLATE_DEPLOYER_KEY, { replaceAfterMs: 200, maxFeePerGas: cap });
        const pay = operatorPayers({ kind: 'embedded', operator: replacing, deployed: deployment.contracts }, wrapped)!.reward;
        return { cap, hash: await pay({ to: wallet.toLowerCase(), amount: 6_000_000n, key: stuckKey }) };
      })();
      const first = BigInt((await pooledTransaction(anvil)).maxFeePerGas!);
      // The next block's base fee ten times what the first version offers: it stays in the pool.
      await anvil.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: first * 10n });
      await anvil.testClient.mine({ blocks: 1 });
      // A version is recorded before it is sent: the block is mined once the pool holds the replacement, or it mines nothing and none follows.
      await until(async () => {
        const versions = await wrapped.find(stuckKey);
        return versions.length >= 2 && (await pooledTransaction(anvil)).hash === versions.at(-1)!.hash ? true : undefined;
      });
      await anvil.testClient.mine({ blocks: 1 });
      const { cap, hash } = await paying;
      const versions = await wrapped.find(stuckKey);
      assert.equal(hash, versions.at(-1)!.hash, 'the last version was mined');
      assert.equal(new Set(versions.map((v) => v.nonce)).size, 1, 'every version has the nonce of the first');
      const fees = versions.map((v) => parseTransaction(v.raw).maxFeePerGas!);
      assert.equal(fees[0], first);
      assert.ok(fees.every((fee) => fee <= cap), `${fees} under ${cap}`);
      assert.equal(fees.at(-1), cap, 'the market asks more than the cap: the replacement offers the cap');
    } finally {
      await anvil.testClient.setAutomine(true);
    }
    assert.equal(await collateralOf(wallet), 6_000_000n);
    assert.equal(await rewardPayer(wrapped)({ to: wallet.toLowerCase(), amount: 6_000_000n, key: stuckKey }), (await wrapped.find(stuckKey)).at(-1)!.hash, 'asked again: the mined version, nothing sent');
    assert.equal(await collateralOf(wallet), 6_000_000n);
  });
});

async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

