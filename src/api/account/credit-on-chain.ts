import type { Address } from 'viem';
import { fundingSourceOf, fundWallet } from '../../chain/index.ts';
import type { AppContext } from '../context.ts';

/**
 * On a chain with the exchange's contracts, a credit the engine made durable is mirrored on chain:
 * the same collateral to the user's wallet, the proxy wallet deployed. EXTENSIONS.md section 14:
 * minted on the local chain (CHAIN=embedded), transferred from the operator's treasury (its own
 * balance) on any other (CHAIN=rpc). The ledger is the record meanwhile, so a chain that fails
 * here (a treasury too short included) is logged, not answered: the credit stands, and
 * reconciling from chain balances (issue 39) will make up the difference.
 */
export async function creditOnChain(ctx: AppContext, to: { owner: Address; wallet: Address }, amountBaseUnits: bigint): Promise<void> {
  const { operator, deployed, kind } = ctx.chain;
  if (!operator || !deployed || kind === 'none') return;
  try {
    await fundWallet(operator, deployed, to, amountBaseUnits, fundingSourceOf(kind));
  } catch (error) {
    ctx.logger.warn({ err: error, wallet: to.wallet, amountBaseUnits: String(amountBaseUnits) }, 'a credit was not mirrored on chain: the ledger holds it, the wallet does not');
  }
}
