import { defineChain, type Chain } from 'viem';

/**
 * The chain the exchange's contracts live on, as viem's clients name it: its id (transports carry
 * the URL), and how its fees are estimated. Every transaction of ours offers up to twice the base
 * fee (viem's default is 1.2 times it) plus the tip, as ethers and most wallets do: it stays
 * minable while the base fee rises six full blocks in a row (12.5% a block), where 1.2 times was
 * passed by the second. It pays only the block's base fee and the tip (EIP-1559); the key needs
 * gas for the higher ceiling. The operator's transactions are never replaced (src/chain/README.md
 * "CHAIN=rpc"), so a fee the base fee passes would hold every later one behind it.
 */
export function exchangeChain(chainId: number): Chain {
  return defineChain({ id: chainId, name: 'exchange chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } }, fees: { baseFeeMultiplier: 2 } });
}
