import type { Address, Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import type { ChainOperator, ContractCall } from './operator.ts';

/** A withdrawal its wallet's owner signed (EXTENSIONS.md section 14), to relay as ProxyWallet.withdraw. */
export interface SignedWithdrawal {
  readonly owner: Address;
  readonly wallet: Address;
  readonly to: Address;
  readonly amountBaseUnits: bigint;
  readonly nonce: bigint;
  readonly signature: Hex;
}

export type WithdrawalRelay =
  /** The chain would refuse it (a revert, or no wallet deployed): nothing was recorded or sent. */
  | { kind: 'refused'; reason: string }
  | { kind: 'sent'; txHash: Hex }
  /**
   * Recorded, then the send failed. `spentOnChain` is the wallet's own word on the nonce read
   * afterwards: false means the withdrawal did not happen; undefined, that the chain did not say.
   */
  | { kind: 'send-failed'; error: unknown; spentOnChain: boolean | undefined };

/**
 * Relays a signed withdrawal to the owner's proxy wallet in one turn of the operator's key, so no
 * other transaction of ours comes between its steps: the call is simulated (a revert sends and
 * records nothing), then `record` runs (the engine's journaled command, which throws when the
 * ledger refuses it: then nothing is sent), then the call is sent and mined.
 */
export function relayWithdrawal(operator: ChainOperator, deployed: DeployedContracts, w: SignedWithdrawal, record: () => Promise<unknown>): Promise<WithdrawalRelay> {
  const wallet = { address: w.wallet, abi: loadArtifact('ProxyWallet').abi };
  const call: ContractCall = { ...wallet, functionName: 'withdraw', args: [w.to, w.amountBaseUnits, w.nonce, w.signature] };
  const factory = { address: deployed.proxyWalletFactory, abi: loadArtifact('ProxyWalletFactory').abi };
  return operator.exclusive(async (chain): Promise<WithdrawalRelay> => {
    // A call to an address without code succeeds and does nothing, so a wallet not deployed is a refusal of its own.
    if (!(await chain.read<boolean>({ ...factory, functionName: 'isDeployed', args: [w.owner] }))) return { kind: 'refused', reason: 'the wallet is not deployed on chain' };
    const simulation = await chain.simulate(call);
    if (!simulation.ok) return { kind: 'refused', reason: simulation.reason };
    await record();
    try {
      return { kind: 'sent', txHash: await chain.send(call) };
    } catch (error) {
      const spentOnChain = await chain.read<boolean>({ ...wallet, functionName: 'withdrawNonceUsed', args: [w.nonce] }).catch(() => undefined);
      return { kind: 'send-failed', error, spentOnChain };
    }
  });
}
