import assert from 'node:assert/strict';
import { createPublicClient, http, parseAbi, parseEventLogs, type Hex } from 'viem';
import type { TestServer } from './server.ts';

const TRANSFER = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

/** On the embedded chain: `txHash` is a mined, successful transaction whose collateral transfer paid `wallet` exactly `amount`. */
export async function expectPaidOnChain(server: TestServer, txHash: string, wallet: string, amount: bigint): Promise<void> {
  const url = server.ctx.chain.embedded?.url;
  assert.ok(url, 'a payout on chain needs the embedded chain');
  const receipt = await createPublicClient({ transport: http(url) }).getTransactionReceipt({ hash: txHash as Hex });
  assert.equal(receipt.status, 'success');
  const [transfer] = parseEventLogs({ abi: TRANSFER, logs: receipt.logs });
  assert.deepEqual([transfer?.args.to.toLowerCase(), transfer?.args.value], [wallet.toLowerCase(), amount]);
}
