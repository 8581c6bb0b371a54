import type { AbiEvent, Address, Hex, Log, PublicClient } from 'viem';

/** Blocks asked for at once: public RPC providers refuse `eth_getLogs` over wide ranges. */
const LOG_WINDOW = 10_000n;
/** How far back a log is looked for (about 2 days of 2 s blocks). */
const LOOKBACK_BLOCKS = 100_000n;

export interface LogQuery {
  readonly address: Address;
  readonly event: AbiEvent;
  /** The event's indexed arguments to match, by name. */
  readonly args: Record<string, unknown>;
  /** Whether a matching log is the one looked for, when its indexed arguments do not say it alone. */
  readonly accept?: (log: Log) => Promise<boolean>;
}

/**
 * The transaction of the newest log matching `query` in the last LOOKBACK_BLOCKS blocks, read
 * newest blocks first in windows of LOG_WINDOW; null when there is none. For something the
 * exchange did lately and lost track of: a match sent again, a market registered by a publish
 * that failed later.
 */
export async function recentLogTransaction(client: PublicClient, query: LogQuery): Promise<Hex | null> {
  const head = await client.getBlockNumber();
  const oldest = head > LOOKBACK_BLOCKS ? head - LOOKBACK_BLOCKS : 0n;
  for (let toBlock = head; ; ) {
    const fromBlock = toBlock - oldest >= LOG_WINDOW ? toBlock - LOG_WINDOW + 1n : oldest;
    const logs = await client.getLogs({ address: query.address, event: query.event, args: query.args, fromBlock, toBlock });
    for (const log of logs.reverse()) if (!query.accept || (await query.accept(log))) return log.transactionHash;
    if (fromBlock === oldest) return null;
    toBlock = fromBlock - 1n;
  }
}
