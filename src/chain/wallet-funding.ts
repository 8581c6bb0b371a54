import type { Address } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';

/**
 * Puts a credit on chain (the faucet and admin credits of a local chain): mints the collateral to
 * the user's wallet, then deploys the owner's proxy wallet if it is not yet (the factory returns an
 * existing one, so a second credit only mints). The operator is the collateral's minter.
 */
export function fundWallet(operator: ChainOperator, deployed: DeployedContracts, to: { owner: Address; wallet: Address }, amountBaseUnits: bigint): Promise<void> {
  return operator.exclusive(async (chain) => {
    await chain.send({ address: deployed.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [to.wallet, amountBaseUnits] });
    const factory = { address: deployed.proxyWalletFactory, abi: loadArtifact('ProxyWalletFactory').abi };
    if (!(await chain.read<boolean>({ ...factory, functionName: 'isDeployed', args: [to.owner] }))) {
      await chain.send({ ...factory, functionName: 'deployWallet', args: [to.owner] });
    }
  });
}
