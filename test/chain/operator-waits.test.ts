// The operator's wait for a transaction it sent, on a chain that mines only when told (the
// embedded anvil; played here by turning automine off):
// - one that anvil leaves in its pool (foundry-rs/foundry#10122) is mined by a block the operator
//   asks for, instead of holding every later transaction behind it;
// - a chain that stops answering for a while (a node restarting, a provider's rate limit) does not
//   end the wait, since the transaction may be mined whatever the wait sees; past READ_OUTAGE_MS
//   the wait says the fate is unknown (FateUnknownError) instead of failing as if nothing was sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deployExchangeContracts, TEMPLATE_DEPLOYER_KEY, type ChainDeployment } from '../../src/chain/deployment.ts';
import { ChainOperator, FateUnknownError, type OperatorOptions } from '../../src/chain/operator.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { pooledTransaction, startAnvil, type Anvil } from '../helpers/anvil.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** Nothing listens on port 1. */
const DEAD_URL = 'http://127.0.0.1:1';

describe('the operator waiting for its transaction on a chain that mines only when told', { skip: storeIndependent('the chain') }, () => {
  let anvil: Anvil;
  let deployment: ChainDeployment;

  before(async () => {
    anvil = await startAnvil();
    deployment = await deployExchangeContracts(anvil.rpcUrl, anvil.chain.id, 'PMX Exchange');
    await anvil.testClient.setAutomine(false);
  });
  after(() => anvil?.stop());

  /** An operator whose chain is reached where `reach.url` says at each call. */
  const operatorOver = (reach: { url: string }, options: OperatorOptions = {}) => new ChainOperator(() => reach.url, anvil.chain.id, TEMPLATE_DEPLOYER_KEY, options);
  const mint = (operator: ChainOperator, amount: bigint) =>
    operator.exclusive((chain) => chain.send({ address: deployment.contracts.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [anvil.account(5).address, amount] }));
  const within = <T>(work: Promise<T>, ms: number) => Promise.race([work.then(() => 'mined' as const), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);

  it('waits for ever without a way to mine, and is mined within seconds with one', async () => {
    const stuck = mint(operatorOver({ url: anvil.rpcUrl }), 1n);
    assert.equal(await within(stuck, 3_000), 'waiting', 'nothing mines the transaction');
    const mine = () => anvil.testClient.mine({ blocks: 1 });
    // A block is asked for after a second of waiting; the bound leaves room for a loaded machine (CI runs three suites at once).
    assert.equal(await within(mint(operatorOver({ url: anvil.rpcUrl }, { flushPending: mine }), 2n), 15_000), 'mined');
    assert.equal(await within(stuck, 1_000), 'mined', 'the block mined for the second took the first too');
  });

  it('answers the mined transaction when the chain answers again within the bound', async () => {
    const reach = { url: anvil.rpcUrl };
    const sending = mint(operatorOver(reach, { readOutageMs: 10_000 }), 3n);
    const sent = (await pooledTransaction(anvil)).hash;
    reach.url = DEAD_URL;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    reach.url = anvil.rpcUrl;
    await anvil.testClient.mine({ blocks: 1 });
    assert.equal(await sending, sent);
    assert.equal((await anvil.publicClient.getTransactionReceipt({ hash: sent })).status, 'success');
  });

  it('past the bound, says the transaction was sent and may still be mined, naming it; and it may', async () => {
    const reach = { url: anvil.rpcUrl };
    const sending = mint(operatorOver(reach, { readOutageMs: 300 }), 4n);
    const sent = (await pooledTransaction(anvil)).hash;
    reach.url = DEAD_URL;
    await assert.rejects(sending, (error: unknown) => error instanceof FateUnknownError && error.hashes.at(-1) === sent && /may still be/.test(error.message));
    await anvil.testClient.mine({ blocks: 1 });
    assert.equal((await anvil.publicClient.getTransactionReceipt({ hash: sent })).status, 'success', 'it was mined after the wait gave up');
  });
});
