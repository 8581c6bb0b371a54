import { formatUnits, type Address, type Hex } from 'viem';
import { WITHDRAW_TYPES } from '../../src/contract/withdraw-typed-data.ts';
import { get } from './http.ts';
import type { ApiServer } from './server.ts';
import type { Trader } from './trader.ts';

export interface WithdrawalTerms {
  to: Address;
  /** Base units (6 decimals). */
  amount: bigint;
  nonce: bigint;
}

/** A wallet owner's EIP-712 Withdraw signature, under the domain GET /exchange publishes, as a client makes it. */
export async function signWithdrawal(server: ApiServer, signer: Trader['session']['account'], terms: WithdrawalTerms, domainChanges: Record<string, unknown> = {}): Promise<Hex> {
  const exchange = (await get(server.api('/exchange'))).body;
  return signer.signTypedData({ domain: { ...exchange.eip712, chainId: exchange.chainId, ...domainChanges }, types: WITHDRAW_TYPES, primaryType: 'Withdraw', message: terms });
}

/** A POST /account/withdraw body for `terms`, signed by the trader's own sign-in key. */
export async function withdrawBody(server: ApiServer, trader: Trader, terms: WithdrawalTerms): Promise<Record<string, unknown>> {
  const signature = await signWithdrawal(server, trader.session.account, terms);
  return { to: terms.to, amount: formatUnits(terms.amount, 6), nonce: Number(terms.nonce), signature };
}
