import { type Address, type Hex, type PublicClient, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem';

/** The receipt of `hash`, or null while it is in no canonical block. */
export async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/** The first receipt found among `hashes` (at most one can be mined: they share a nonce). */
export async function receiptOfAny(client: PublicClient, hashes: readonly Hex[]): Promise<TransactionReceipt | null> {
  const receipts = await Promise.all(hashes.map((hash) => receiptOf(client, hash)));
  return receipts.find((receipt) => receipt !== null) ?? null;
}

/** The hash of the canonical block at `blockNumber`, or null above the head. */
export async function blockHashAt(client: PublicClient, blockNumber: number): Promise<Hex | null> {
  const block = await client.request({ method: 'eth_getBlockByNumber', params: [`0x${blockNumber.toString(16)}`, false] });
  return block?.hash ?? null;
}

/** How many of the operator's transactions are mined (`latest`), or mined and pooled (`pending`). */
export const nonceAt = (client: PublicClient, address: Address, blockTag: 'latest' | 'pending') => client.getTransactionCount({ address, blockTag });
