import { defineChain, type Chain } from 'viem';

/** The chain the exchange's contracts live on, as viem's clients name it: only its id matters to them (transports carry the URL). */
export function exchangeChain(chainId: number): Chain {
  return defineChain({ id: chainId, name: 'exchange chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } });
}
