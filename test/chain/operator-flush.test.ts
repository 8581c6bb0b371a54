// The operator's transactions on a chain that mines only when told (the embedded anvil): one that
// anvil leaves in its pool (foundry-rs/foundry#10122; played here by turning automine off) is
// mined by a block the operator asks for, instead of holding every later transaction behind it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deployExchangeContracts, TEMPLATE_DEPLOYER_KEY, type ChainDeployment } from '../../src/chain/deployment.ts';
import { ChainOperator } from '../../src/chain/operator.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { startAnvil, type Anvil } from '../helpers/anvil.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

describe('the operator on a chain that left its transaction in the pool', { skip: storeIndependent('the chain') }, () => {
  let anvil: Anvil;
  let deployment: ChainDeployment;

  before(async () => {
    anvil = await startAnvil();
    deployment = await deployExchangeContracts(anvil.rpcUrl, anvil.chain.id, 'PMX Exchange');
    await anvil.testClient.setAutomine(false);
  });
  after(() => anvil?.stop());

  const mint = (operator: ChainOperator, amount: bigint) =>
    operator.exclusive((chain) => chain.send({ address: deployment.contracts.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [anvil.account(5).address, amount] }));
  const within = <T>(work: Promise<T>, ms: number) => Promise.race([work.then(() => 'mined' as const), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);

  it('waits for ever without a way to mine, and is mined within seconds with one', async () => {
    const stuck = mint(new ChainOperator(() => anvil.rpcUrl, anvil.chain.id, TEMPLATE_DEPLOYER_KEY), 1n);
    assert.equal(await within(stuck, 3_000), 'waiting', 'nothing mines the transaction');
    const mine = () => anvil.testClient.mine({ blocks: 1 });
    const flushing = new ChainOperator(() => anvil.rpcUrl, anvil.chain.id, TEMPLATE_DEPLOYER_KEY, { flushPending: mine });
    assert.equal(await within(mint(flushing, 2n), 5_000), 'mined');
    assert.equal(await within(stuck, 1_000), 'mined', 'the block mined for the second took the first too');
  });
});
