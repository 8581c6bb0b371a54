import { defineChain, type Chain } from 'viem';

/**
 * The chain the exchange's contracts live on, as viem's clients name it: its id (transports carry
 * the URL), and how its fees are estimated. Every transaction of ours offers up to twice the base
 * fee (viem's default is 1.2 times it) plus the tip, as ethers and most wallets do: it stays
 * minable while the base fee rises six full blocks in a row (12.5% a block), where 1.2 times was
 * passed by the second. It pays only the block's base fee and the tip (EIP-1559); the key needs
 * gas for the higher ceiling. A version the base fee passes holds every later transaction of its
 * key behind it until it is replaced at higher fees (until-mined.ts, src/chain/README.md "CHAIN=rpc").
 */
export function exchangeChain(chainId: number): Chain {
  return defineChain({ id: chainId, name: 'exchange chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } }, fees: { baseFeeMultiplier: 2 } });
}
