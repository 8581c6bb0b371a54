/**
 * Ledger accounts. Users hold balances in their proxy wallet (a lowercase 0x address); the exchange
 * holds the rest in named system accounts, which contain a ':' so they never look like an address.
 */
export const REWARD_TREASURY = 'system:reward-treasury';
/** Fees that are not a market's trading fees (e.g. the fee account's half of a losing bond). */
export const FEE_ACCOUNT = 'system:fees';
/**
 * Collateral users withdrew (POST /account/withdraw): value that left the exchange. It stays an
 * account rather than vanishing so that the collateral held still equals all ever credited.
 */
export const WITHDRAWN = 'system:withdrawn';
/**
 * The rest of the chain, as the indexer sees it (CHAIN=embedded): what users' wallets sent out
 * behind the exchange's back (a transfer by the wallet's owner, outcome tokens sent away), and the
 * other outcome token of a complete set whose one token arrived from outside. Value arriving
 * later comes from here first, so a wallet's own split on chain is a split in the ledger.
 */
export const OUTSIDE = 'system:outside';

/**
 * The collateral behind a market's outstanding complete sets. One per market, so markets settling
 * in parallel never wait on each other's rows.
 */
export const marketLockAccount = (conditionId: string) => `market-lock:${conditionId}`;

/**
 * Trading fees of one market. Fees are kept per market rather than in one account because every
 * trade pays one: a single fee row would serialize every market's settlement behind one row lock.
 */
export const marketFeeAccount = (conditionId: string) => `fees:${conditionId}`;

/** A user's ledger account: the proxy wallet, lowercase. */
export const userAccount = (proxyWallet: string) => proxyWallet.toLowerCase();
