import type { Address } from 'viem';
import { callJsonRpc } from './json-rpc.ts';

/** What an operator watches of the chain: whether it answers, its head, its gas price, and the gas left to the accounts that pay it. */
export interface ChainHealth {
  readonly blockNumber: bigint;
  /** What the chain asks per gas now (`eth_gasPrice`: the base fee and a tip), in wei. */
  readonly gasPriceWei: bigint;
  readonly balances: readonly { account: string; address: Address; wei: bigint }[];
}

/** Reads the head, the gas price and each payer's native balance, every call bounded by `timeoutMs`; rejects when the chain does not answer. */
export async function readChainHealth(url: string, payers: readonly { account: string; address: Address }[], timeoutMs: number): Promise<ChainHealth> {
  const [head, gasPrice, ...balances] = await Promise.all([
    callJsonRpc<string>(url, 'eth_blockNumber', [], timeoutMs),
    callJsonRpc<string>(url, 'eth_gasPrice', [], timeoutMs),
    ...payers.map((payer) => callJsonRpc<string>(url, 'eth_getBalance', [payer.address, 'latest'], timeoutMs)),
  ]);
  return { blockNumber: BigInt(head), gasPriceWei: BigInt(gasPrice), balances: payers.map((payer, i) => ({ ...payer, wei: BigInt(balances[i]!) })) };
}
