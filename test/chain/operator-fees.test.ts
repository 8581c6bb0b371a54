// What the operator's transactions offer for gas: enough that a base fee rising for several full
// blocks after the send does not leave one in the pool, holding every later one behind it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseGwei } from 'viem';
import { deployExchangeContracts, TEMPLATE_DEPLOYER_KEY, type ChainDeployment } from '../../src/chain/deployment.ts';
import { ChainOperator } from '../../src/chain/operator.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { pooledTransaction, startAnvil, type Anvil } from '../helpers/anvil.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

describe("the operator's fees", { skip: storeIndependent('the chain') }, () => {
  let anvil: Anvil;
  let deployment: ChainDeployment;

  before(async () => {
    // A base fee far above the tip anvil estimates (1 gwei), as on a busy public chain: the fee is then mostly the base fee's.
    anvil = await startAnvil(['--block-base-fee-per-gas', String(parseGwei('100'))]);
    deployment = await deployExchangeContracts(anvil.rpcUrl, anvil.chain.id, 'PMX Exchange');
    await anvil.testClient.setAutomine(false);
  });
  after(() => anvil?.stop());

  it('are mined in a block whose base fee rose 75% since the send (five full blocks of 12.5%)', async () => {
    const operator = new ChainOperator(() => anvil.rpcUrl, anvil.chain.id, TEMPLATE_DEPLOYER_KEY);
    const mint = operator.exclusive((chain) => chain.send({ address: deployment.contracts.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [anvil.account(5).address, 1n] }));
    const offered = BigInt((await pooledTransaction(anvil)).maxFeePerGas!);
    const { baseFeePerGas } = await anvil.publicClient.getBlock({ blockTag: 'pending' });
    assert.ok(offered >= baseFeePerGas! * 2n, `${offered} offered at a base fee of ${baseFeePerGas}`);
    await anvil.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: (baseFeePerGas! * 175n) / 100n });
    await anvil.testClient.mine({ blocks: 1 });
    await mint;
  });
});
