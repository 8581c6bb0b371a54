import type { Address } from 'viem';
import { callJsonRpc } from './json-rpc.ts';

/** What an operator watches of the chain: whether it answers, its head, and the gas left to the accounts that pay it. */
export interface ChainHealth {
  readonly blockNumber: bigint;
  readonly balances: readonly { account: string; address: Address; wei: bigint }[];
}

/** Reads the head and each payer's native balance, every call bounded by `timeoutMs`; rejects when the chain does not answer. */
export async function readChainHealth(url: string, payers: readonly { account: string; address: Address }[], timeoutMs: number): Promise<ChainHealth> {
  const [head, ...balances] = await Promise.all([
    callJsonRpc<string>(url, 'eth_blockNumber', [], timeoutMs),
    ...payers.map((payer) => callJsonRpc<string>(url, 'eth_getBalance', [payer.address, 'latest'], timeoutMs)),
  ]);
  return { blockNumber: BigInt(head), balances: payers.map((payer, i) => ({ ...payer, wei: BigInt(balances[i]!) })) };
}
