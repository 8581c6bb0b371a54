import type { Address, Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator } from './operator.ts';
import { deployWalletIfMissing } from './wallet-deployment.ts';

/** A user's proxy wallet and the owner it was deployed for (the factory deploys by owner). */
export interface WalletOfOwner {
  readonly owner: Address;
  readonly wallet: Address;
}

/**
 * The conditional-token operations the operator relays on a user's proxy wallet
 * (contracts/wallet/ProxyWallet.sol: the operator is a relayer). Each converts value inside the
 * wallet and keeps the result there; each resolves with its transaction's hash once mined, and
 * deploys the wallet first when it is not yet.
 */
export interface WalletPositions {
  /** The wallet's ERC-1155 balances of the given position ids, in their order. */
  balances(wallet: Address, tokenIds: readonly string[]): Promise<bigint[]>;
  /** Collateral into `amount` of both outcome tokens of the condition. */
  split(to: WalletOfOwner, conditionId: Hex, amountBaseUnits: bigint): Promise<Hex>;
  /** `amount` complete sets of the condition back into collateral. */
  merge(to: WalletOfOwner, conditionId: Hex, amountBaseUnits: bigint): Promise<Hex>;
  /** Every token the wallet holds of a resolved condition into its payout. */
  redeem(to: WalletOfOwner, conditionId: Hex): Promise<Hex>;
}

export function walletPositions(operator: ChainOperator, deployed: DeployedContracts): WalletPositions {
  const conditionalTokens = { address: deployed.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi };
  const proxyWallet = (wallet: Address) => ({ address: wallet, abi: loadArtifact('ProxyWallet').abi });
  /** Runs one relayed call on the wallet, deploying the wallet first when it is not yet. */
  const relay = (to: WalletOfOwner, functionName: string, args: readonly unknown[]) => operator.exclusive(async (chain) => {
    await deployWalletIfMissing(chain, deployed, to.owner);
    return chain.send({ ...proxyWallet(to.wallet), functionName, args });
  });
  return {
    balances: async (wallet, tokenIds) => {
      if (tokenIds.length === 0) return [];
      const read = await operator.read<readonly bigint[]>({ ...conditionalTokens, functionName: 'balanceOfBatch', args: [tokenIds.map(() => wallet), tokenIds.map(BigInt)] });
      return [...read];
    },
    split: (to, conditionId, amount) => relay(to, 'splitPosition', [conditionId, amount]),
    merge: (to, conditionId, amount) => relay(to, 'mergePositions', [conditionId, amount]),
    redeem: (to, conditionId) => relay(to, 'redeemPositions', [conditionId]),
  };
}
