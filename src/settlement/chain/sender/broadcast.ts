import type { Hex, PublicClient } from 'viem';
import { refusalOutcome, type BroadcastOutcome } from '../../../core/node-answers.ts';

export type { BroadcastOutcome } from '../../../core/node-answers.ts';

/**
 * Sends a signed transaction. An `error` (core/node-answers.ts) is also handed to `onError`: a
 * node that refuses the transaction itself (its key without gas for it, say) leaves the record
 * waiting for its replacement, and nothing else would tell the operator why.
 */
export async function broadcast(settings: { client: PublicClient; onError(error: unknown): void }, raw: Hex): Promise<{ outcome: BroadcastOutcome; error?: unknown }> {
  try {
    await settings.client.request({ method: 'eth_sendRawTransaction', params: [raw] });
    return { outcome: 'accepted' };
  } catch (error) {
    const outcome = refusalOutcome(error);
    if (outcome === 'accepted') return { outcome };
    if (outcome === 'error') settings.onError(error);
    return { outcome, error };
  }
}
