import type { Address } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';
import { deployWalletIfMissing } from './wallet-deployment.ts';

/**
 * Where a credit's collateral comes from (EXTENSIONS.md section 14): minted on a local chain (the
 * operator is the local collateral's minter), transferred from the operator's own balance, its
 * treasury, on any other.
 */
export type FundingSource = 'mint' | 'treasury';

/**
 * Puts a credit on chain (the faucet and admin credits): the collateral to the user's wallet, then
 * the owner's proxy wallet deployed if it is not yet (the factory returns an existing one, so a
 * second credit only moves collateral).
 */
export function fundWallet(operator: ChainOperator, deployed: DeployedContracts, to: { owner: Address; wallet: Address }, amountBaseUnits: bigint, source: FundingSource): Promise<void> {
  const collateral = { address: deployed.collateral, abi: loadArtifact('LocalCollateral').abi };
  return operator.exclusive(async (chain) => {
    if (source === 'mint') await chain.send({ ...collateral, functionName: 'mint', args: [to.wallet, amountBaseUnits] });
    else await chain.send({ ...collateral, functionName: 'transfer', args: [to.wallet, amountBaseUnits] });
    await deployWalletIfMissing(chain, deployed, to.owner);
  });
}
