import { BaseError, type Hex, type PublicClient } from 'viem';

/**
 * What a node said to a raw transaction. `accepted` includes "already known" (the node has this
 * very transaction); `nonce-too-low` means the nonce is used, by one of our versions or by someone
 * else's transaction: only receipts can tell which; `underpriced` means a replacement did not
 * raise the fees enough, or the fee is below the base fee; `error` is anything else (the record
 * stays, and the replacement timer sends it again).
 */
export type BroadcastOutcome = 'accepted' | 'nonce-too-low' | 'underpriced' | 'error';

const ALREADY_KNOWN = /already known|known transaction|already imported|already exists/i;
const NONCE_TOO_LOW = /nonce too low|nonce.*(already used|has already been used)|OldNonce/i;
const UNDERPRICED = /underpriced|fee too low|max fee per gas less than block base fee|FeeCapTooLow/i;

function textOf(error: unknown): string {
  if (!(error instanceof BaseError)) return String(error);
  const parts: string[] = [];
  error.walk((cause) => {
    parts.push((cause as Error).message ?? '', String((cause as { details?: unknown }).details ?? ''));
    return false;
  });
  return parts.join(' | ');
}

/**
 * Sends a signed transaction. An `error` is also handed to `onError`: a node that refuses the
 * transaction itself (its key without gas for it, say) leaves the record waiting for its
 * replacement, and nothing else would tell the operator why.
 */
export async function broadcast(settings: { client: PublicClient; onError(error: unknown): void }, raw: Hex): Promise<{ outcome: BroadcastOutcome; error?: unknown }> {
  try {
    await settings.client.request({ method: 'eth_sendRawTransaction', params: [raw] });
    return { outcome: 'accepted' };
  } catch (error) {
    const text = textOf(error);
    if (ALREADY_KNOWN.test(text)) return { outcome: 'accepted' };
    if (NONCE_TOO_LOW.test(text)) return { outcome: 'nonce-too-low', error };
    if (UNDERPRICED.test(text)) return { outcome: 'underpriced', error };
    settings.onError(error);
    return { outcome: 'error', error };
  }
}
