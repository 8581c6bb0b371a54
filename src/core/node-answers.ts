import { BaseError } from 'viem';

/**
 * What a node said to a raw transaction (eth_sendRawTransaction). `accepted` includes "already
 * known" (the node has this very transaction); `nonce-too-low` means the nonce is used, by one of
 * the key's versions or by another transaction: only receipts can tell which; `underpriced` means
 * a replacement did not raise the fees enough, or the fee is below the base fee; `error` is
 * anything else (a key without gas, a node down). Each node spells these its own way: the
 * patterns hold the spellings seen.
 */
export type BroadcastOutcome = 'accepted' | 'nonce-too-low' | 'underpriced' | 'error';

const ALREADY_KNOWN = /already known|known transaction|already imported|already exists/i;
const NONCE_TOO_LOW = /nonce too low|nonce.*(already used|has already been used)|OldNonce/i;
const UNDERPRICED = /underpriced|fee too low|max fee per gas less than block base fee|FeeCapTooLow/i;

/** What a node's refusal of a raw transaction means (never `accepted` unless it already had it). */
export function refusalOutcome(error: unknown): BroadcastOutcome {
  const text = textOf(error);
  if (ALREADY_KNOWN.test(text)) return 'accepted';
  if (NONCE_TOO_LOW.test(text)) return 'nonce-too-low';
  if (UNDERPRICED.test(text)) return 'underpriced';
  return 'error';
}

function textOf(error: unknown): string {
  if (!(error instanceof BaseError)) return String(error);
  const parts: string[] = [];
  error.walk((cause) => {
    parts.push((cause as Error).message ?? '', String((cause as { details?: unknown }).details ?? ''));
    return false;
  });
  return parts.join(' | ');
}
