import type { Address } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { OperatorSteps } from './operator.ts';

/**
 * Deploys the owner's proxy wallet unless it is deployed already (its address holds funds before
 * it is deployed: walletOf). Run inside `ChainOperator.exclusive`, so the check is still true
 * when the deployment is sent.
 */
export async function deployWalletIfMissing(chain: OperatorSteps, deployed: DeployedContracts, owner: Address): Promise<void> {
  const factory = { address: deployed.proxyWalletFactory, abi: loadArtifact('ProxyWalletFactory').abi };
  if (!(await chain.read<boolean>({ ...factory, functionName: 'isDeployed', args: [owner] }))) {
    await chain.send({ ...factory, functionName: 'deployWallet', args: [owner] });
  }
}
