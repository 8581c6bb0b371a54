import { useEffect } from 'react';
import { useChain, type ReadableChain } from './chain.ts';
import { walletOnChain, type WalletOnChain } from './chain-reads.ts';
import { useLoad } from './load.ts';
import { useSession } from './session.ts';

/**
 * How often the wallet's balances are read again while the tab is visible. The exchange announces
 * what it records (every /user message reloads them), but not what reaches the wallet behind its
 * back (a deposit straight to it) nor the moment a settlement is mined.
 */
const CHAIN_POLL_MS = 5_000;

/**
 * The signed-in trader's proxy wallet as the chain holds it (collateral, and the outcome tokens of
 * `tokenIds`), read again whenever the trader's views reload and every CHAIN_POLL_MS. `onChain`
 * is undefined without a readable chain, signed out, or while it loads.
 */
export function useWalletOnChain(tokenIds: readonly string[]): { chain: ReadableChain | undefined; onChain: WalletOnChain | undefined } {
  const { client, user, revision } = useSession();
  const chain = useChain(client);
  const wallet = user?.proxyWallet as `0x${string}` | undefined;
  const key = tokenIds.join(',');
  const read = useLoad(
    () => (chain && wallet ? walletOnChain(chain, wallet, tokenIds) : Promise.resolve(undefined)),
    [chain?.rpcUrl, wallet, key, revision],
  );
  const readable = chain !== undefined && wallet !== undefined;
  const { reload } = read;
  useEffect(() => {
    if (!readable) return undefined;
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), CHAIN_POLL_MS);
    return () => clearInterval(timer);
  }, [readable, reload]);
  return { chain, onChain: readable ? read.data : undefined };
}
