import { getAddress, type Address, type Hex } from 'viem';
import { loadArtifact } from '../settlement/contracts/index.ts';
import type { DeployedContracts } from './deployment.ts';
import { recordedCall, sendOnce, type PaymentIntents } from './once-payments.ts';
import type { ChainOperator, ContractCall } from './operator.ts';
import { deployWalletIfMissing } from './wallet-deployment.ts';

/**
 * Where a credit's collateral comes from (EXTENSIONS.md section 14): minted on a local chain (the
 * operator is the local collateral's minter), transferred from the operator's own balance, its
 * treasury, on any other.
 */
export type FundingSource = 'mint' | 'treasury';

/** The local chain's collateral is minted; any other chain's comes from the operator's balance. */
export const fundingSourceOf = (kind: 'embedded' | 'rpc'): FundingSource => (kind === 'embedded' ? 'mint' : 'treasury');

/**
 * Puts a credit on chain (the faucet and admin credits) once per key: the collateral paid as `pay`
 * pays (a payer of `operatorPayers`: recorded before it is sent, so asked again, after a crash or an
 * answer lost, it sends nothing more, and `minedCredit` can tell later what became of it), then the
 * owner's proxy wallet deployed if it is not yet (the factory returns an existing one, so a second
 * credit only moves collateral).
 */
export async function fundWalletOnce(operator: ChainOperator, deployed: DeployedContracts, pay: OperatorPayers['reward'], to: { owner: Address; wallet: Address }, amountBaseUnits: bigint, key: string): Promise<void> {
  await pay({ to: to.wallet, amount: amountBaseUnits, key });
  await operator.exclusive((chain) => deployWalletIfMissing(chain, deployed, to.owner));
}

/**
 * Pays collateral from the operator's side to a ledger account's wallet (its lowercase address),
 * for a move the ledger made (`key`, its transaction's hash): a reward claim, an oracle reward.
 * Minted or transferred as `source` says, the wallet left as it is (collateral sent to a wallet
 * not deployed yet is its owner's once the factory deploys it), and sent at most once per key
 * (once-payments.ts). The mined transaction's hash.
 */
function walletPayer(operator: ChainOperator, deployed: DeployedContracts, source: FundingSource, intents: PaymentIntents): (payment: { to: string; amount: bigint; key: string }) => Promise<Hex> {
  return ({ to, amount, key }) => operator.exclusive((chain) => sendOnce(chain, intents, key, collateralCall(deployed, getAddress(to), amount, source)));
}

/**
 * The credit recorded under `key` by `fundWalletOnce`, if the chain mined it successfully: the
 * wallet it paid and the amount. Undefined when nothing was recorded, or its transaction was not
 * mined (it may still be), reverted, or lost its nonce to another.
 */
export async function minedCredit(operator: ChainOperator, intents: PaymentIntents, key: string): Promise<{ wallet: Address; amountBaseUnits: bigint; txHash: Hex } | undefined> {
  const recorded = await intents.find(key);
  if (recorded.length === 0) return undefined;
  const fate = await operator.exclusive((chain) => chain.fateOf(recorded));
  if (fate.kind !== 'mined' || fate.receipt.status !== 'success') return undefined;
  const [wallet, amountBaseUnits] = recordedCall(recorded, loadArtifact('LocalCollateral').abi).args as readonly [Address, bigint];
  return { wallet, amountBaseUnits, txHash: fate.receipt.transactionHash };
}

function collateralCall(deployed: DeployedContracts, wallet: Address, amountBaseUnits: bigint, source: FundingSource): ContractCall {
  return { address: deployed.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: source === 'mint' ? 'mint' : 'transfer', args: [wallet, amountBaseUnits] };
}

/**
 * Pays a lost oracle bond out of the loser's wallet (`ProxyWallet.payBond`, relayed by the
 * operator; the owner's `operatorTrading` must be on): to the wallet of the side that was right,
 * or, for the fee account's half (`to: 'fees'`), to the exchange's fee receiver. Sent at most
 * once per key (the ledger transaction's hash, once-payments.ts). The mined transaction's hash;
 * PayoutRefusedError when the wallet refuses (its owner turned operator trading off, or it holds
 * less), which is asked only before a new transaction is signed.
 */
function bondPayer(operator: ChainOperator, deployed: DeployedContracts, intents: PaymentIntents): (payment: { from: string; to: string | 'fees'; amount: bigint; key: string }) => Promise<Hex> {
  const exchange = { address: deployed.exchange, abi: loadArtifact('PmxExchange').abi };
  const wallet = (address: string) => ({ address: getAddress(address), abi: loadArtifact('ProxyWallet').abi });
  return ({ from, to, amount, key }) => operator.exclusive(async (chain) => {
    const recipient = to === 'fees' ? await chain.read<Address>({ ...exchange, functionName: 'feeReceiver', args: [] }) : getAddress(to);
    const call = { ...wallet(from), functionName: 'payBond', args: [recipient, amount] };
    const beforeSigning = async () => {
      const simulated = await chain.simulate(call);
      if (!simulated.ok) throw new PayoutRefusedError(`the wallet ${from} refused to pay the bond: ${simulated.reason}`);
    };
    // The fee receiver is read when the payment is made: one changed on the exchange since an attempt that never paid is paid instead.
    return sendOnce(chain, intents, key, call, { beforeSigning, callMayChange: to === 'fees' });
  });
}

/**
 * The payers of ledger moves on a chain with the exchange's contracts, over one record of
 * payments (`intents`): `reward` from the operator's side (reward claims, oracle rewards),
 * `bond` out of a loser's wallet. Undefined on CHAIN=none.
 */
export function operatorPayers(chain: { kind: 'none' | 'embedded' | 'rpc'; operator: ChainOperator | undefined; deployed: DeployedContracts | undefined }, intents: PaymentIntents) {
  const { kind, operator, deployed } = chain;
  if (!operator || !deployed || kind === 'none') return undefined;
  return { reward: walletPayer(operator, deployed, fundingSourceOf(kind), intents), bond: bondPayer(operator, deployed, intents) };
}

export type OperatorPayers = NonNullable<ReturnType<typeof operatorPayers>>;

/** The chain refused a payout (a revert, not a chain that did not answer): trying again changes nothing. */
export class PayoutRefusedError extends Error {}
