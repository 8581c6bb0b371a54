import type { HDAccount } from 'viem/accounts';
import { type ExchangeChain, type Market, ONE } from './exchange-chain.ts';

/** The market and the accounts of a proxy wallet's contract tests (walletParties). */
export interface WalletParties {
  market: Market;
  /** The owner of the proxy wallet under test (its wallet is not deployed yet). */
  owner: HDAccount;
  /** A trader ready to take the other side: its wallet deployed, holding 100 of collateral and of both tokens. */
  counterparty: HDAccount;
  /** An account with no part in the wallet, whose calls it must refuse. */
  stranger: HDAccount;
}

/** A new market on `chain`, and anvil's accounts 3, 4 and 5 as the wallet's owner, its counterparty (funded) and a stranger. */
export async function walletParties(chain: ExchangeChain): Promise<WalletParties> {
  const market = await chain.createMarket();
  const [owner, counterparty, stranger] = [3, 4, 5].map((i) => chain.anvil.account(i)) as [HDAccount, HDAccount, HDAccount];
  await chain.fundTrader(counterparty, market, 100n * ONE);
  return { market, owner, counterparty, stranger };
}
