import type { ReadableChain } from './chain.ts';

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** EIP-3085/3326: the error code of a wallet asked to switch to a chain it does not know. */
const UNRECOGNIZED_CHAIN = 4902;

/**
 * Puts an injected wallet on the exchange's chain (nothing to do when it is there), so what it signs (the exchange's EIP-712
 * domain carries the chain id, and wallets refuse typed data for another chain) and what it
 * reads are that chain's: `wallet_switchEthereumChain`, and when the wallet does not know the
 * chain, `wallet_addEthereumChain` with the exchange's RPC URL (the server's /rpc for the
 * embedded chain). A wallet that refuses both is told so in the error.
 */
export async function switchWalletToChain(provider: Eip1193, chain: ReadableChain): Promise<void> {
  const chainId = `0x${chain.chainId.toString(16)}`;
  if (Number(await provider.request({ method: 'eth_chainId' })) === chain.chainId) return;
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] });
  } catch (error) {
    if (errorCode(error) !== UNRECOGNIZED_CHAIN) throw error;
    await provider.request({
      method: 'wallet_addEthereumChain',
      params: [{ chainId, chainName: `PMX chain ${chain.chainId}`, rpcUrls: [chain.rpcUrl], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }],
    });
  }
}

/** A wallet's error code; some wallets put the original one under `data.originalError`. */
function errorCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, data } = error as { code?: unknown; data?: { originalError?: { code?: unknown } } };
  const nested = data?.originalError?.code;
  return typeof code === 'number' && code !== -32603 ? code : typeof nested === 'number' ? nested : typeof code === 'number' ? code : undefined;
}
