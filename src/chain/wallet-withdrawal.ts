import type { Address, Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import { recordedCall, sendOnce, type PaymentIntents } from './once-payments.ts';
import type { ChainOperator, ContractCall, OperatorSteps } from './operator.ts';

/** A withdrawal its wallet's owner signed (EXTENSIONS.md section 14), to relay as ProxyWallet.withdraw. */
export interface SignedWithdrawal {
  readonly owner: Address;
  readonly wallet: Address;
  readonly to: Address;
  readonly amountBaseUnits: bigint;
  readonly nonce: bigint;
  readonly signature: Hex;
}

/** How a journaled withdrawal ended on chain (`settleWithdrawal`). */
export type WithdrawalOnChain =
  | { kind: 'sent'; txHash: Hex }
  /** The wallet refused it with the nonce unspent: nothing left it, and `reverse` undid the ledger's side (`before`: at an earlier settling). */
  | { kind: 'reversed'; reason: string; before?: true }
  /** The wallet refused it because its nonce was spent by another transaction: the ledger keeps it, for an operator to check. */
  | { kind: 'nonce-spent'; reason: string };

export type WithdrawalRelay = { kind: 'refused'; reason: string } | WithdrawalOnChain;

/** The records of payments keep a withdrawal's transactions under `withdraw:<wallet>:<nonce>`. */
export const WITHDRAWAL_PAYMENT_PREFIX = 'withdraw:';
const paymentKeyOf = (wallet: Address, nonce: bigint) => `${WITHDRAWAL_PAYMENT_PREFIX}${wallet.toLowerCase()}:${nonce}`;

const walletOf = (address: Address) => ({ address, abi: loadArtifact('ProxyWallet').abi });
const withdrawCall = (w: Pick<SignedWithdrawal, 'wallet' | 'to' | 'amountBaseUnits' | 'nonce' | 'signature'>): ContractCall =>
  ({ ...walletOf(w.wallet), functionName: 'withdraw', args: [w.to, w.amountBaseUnits, w.nonce, w.signature] });

/**
 * Relays a signed withdrawal to the owner's proxy wallet in one turn of the operator's key, so no
 * other transaction of ours comes between its steps: the call is simulated (a revert sends and
 * records nothing), then `record` runs (the engine's journaled command, which throws when the
 * ledger refuses it: then nothing is sent), then the withdrawal is settled (`settleWithdrawal`).
 * A failure thrown after `record` leaves the withdrawal in the ledger and its transaction in the
 * records of payments, which the leader settles later (api/account/payment-completion.ts).
 */
export function relayWithdrawal(operator: ChainOperator, deployed: DeployedContracts, intents: PaymentIntents, w: SignedWithdrawal, steps: { record(): Promise<unknown> } & WithdrawalUndo): Promise<WithdrawalRelay> {
  const call = withdrawCall(w);
  const factory = { address: deployed.proxyWalletFactory, abi: loadArtifact('ProxyWalletFactory').abi };
  return operator.exclusive(async (chain): Promise<WithdrawalRelay> => {
    // A call to an address without code succeeds and does nothing, so a wallet not deployed is a refusal of its own.
    if (!(await chain.read<boolean>({ ...factory, functionName: 'isDeployed', args: [w.owner] }))) return { kind: 'refused', reason: 'the wallet is not deployed on chain' };
    const simulation = await chain.simulate(call);
    if (!simulation.ok) return { kind: 'refused', reason: simulation.reason };
    await steps.record();
    return settleWithdrawal(chain, intents, { ...w, key: paymentKeyOf(w.wallet, w.nonce), call }, steps);
  });
}

/** Undoing a withdrawal's ledger side: whether it was done, and doing it (once). */
export interface WithdrawalUndo {
  reversed(): boolean;
  reverse(): Promise<unknown>;
}

/** A withdrawal recorded in the records of payments, as `settleWithdrawal` takes it. */
export interface RecordedWithdrawal {
  key: string;
  wallet: Address;
  to: Address;
  amountBaseUnits: bigint;
  nonce: bigint;
  call: ContractCall;
}

/** The withdrawal recorded under `key`; undefined when nothing is recorded. */
export async function recordedWithdrawal(intents: PaymentIntents, key: string): Promise<RecordedWithdrawal | undefined> {
  const recorded = await intents.find(key);
  if (recorded.length === 0) return undefined;
  const { to: wallet, args } = recordedCall(recorded, loadArtifact('ProxyWallet').abi);
  const [to, amountBaseUnits, nonce, signature] = args as readonly [Address, bigint, bigint, Hex];
  const w = { wallet, to, amountBaseUnits, nonce, signature };
  return { key, ...w, call: withdrawCall(w) };
}

/**
 * Sends a journaled withdrawal's transaction until it is mined, at most once (once-payments.ts:
 * recorded before it is sent; asked again, the recorded one is found mined, sent again, or, its
 * nonce taken, signed anew), in a turn of the operator (`chain`). When the wallet refuses it (its
 * transaction reverted, or a new attempt would) and the nonce is unspent on chain, nothing left the
 * wallet: `undo.reverse` undoes the ledger's side. One undone is never sent again, whatever the
 * wallet would say now. A spent nonce means another transaction used the owner's signature.
 * Anything else (the chain not answering) is thrown, the withdrawal still to settle.
 */
export async function settleWithdrawal(chain: OperatorSteps, intents: PaymentIntents, w: RecordedWithdrawal, undo: WithdrawalUndo): Promise<WithdrawalOnChain> {
  if (undo.reversed()) return { kind: 'reversed', reason: 'undone in the ledger before', before: true };
  const refused = async (reason: string): Promise<WithdrawalOnChain> => {
    if (await chain.read<boolean>({ ...walletOf(w.wallet), functionName: 'withdrawNonceUsed', args: [w.nonce] })) return { kind: 'nonce-spent', reason };
    await undo.reverse();
    return { kind: 'reversed', reason };
  };
  const fate = async () => {
    const recorded = await intents.find(w.key);
    return recorded.length === 0 ? undefined : chain.fateOf(recorded);
  };
  const before = await fate();
  if (before?.kind === 'mined') return before.receipt.status === 'success' ? { kind: 'sent', txHash: before.receipt.transactionHash } : refused(`transaction ${before.receipt.transactionHash} reverted`);
  try {
    const beforeSigning = async () => {
      const simulation = await chain.simulate(w.call);
      if (!simulation.ok) throw new WithdrawalRefusedError(simulation.reason);
    };
    return { kind: 'sent', txHash: await sendOnce(chain, intents, w.key, w.call, { beforeSigning }) };
  } catch (error) {
    if (error instanceof WithdrawalRefusedError) return refused(error.message);
    const after = await fate().catch(() => undefined);
    if (after?.kind === 'mined' && after.receipt.status !== 'success') return refused(`transaction ${after.receipt.transactionHash} reverted`);
    throw error;
  }
}

class WithdrawalRefusedError extends Error {}
