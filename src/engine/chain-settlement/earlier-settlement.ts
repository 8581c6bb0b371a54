import { getAbiItem, type AbiEvent, type Address, type Hex, type PublicClient } from 'viem';
import type { RevertReason } from '../../settlement/chain/sender/index.ts';
import { loadArtifact } from '../../settlement/contracts/index.ts';
import type { MatchFill } from './match-call.ts';

const ORDERS_MATCHED = getAbiItem({ abi: loadArtifact('PmxExchange').abi, name: 'OrdersMatched' }) as AbiEvent;
/** Blocks asked for at once: public RPC providers refuse `eth_getLogs` over wide ranges. */
const LOG_WINDOW = 10_000n;
/** How far back a match's earlier settlement is looked for (about 2 days of 2 s blocks). */
const LOOKBACK_BLOCKS = 100_000n;

/**
 * A match the exchange already settled: its taker order is the taker of one match at most, and the
 * contract refuses a second with `TakerAlreadyMatched(takerOrderHash)` (contracts/exchange/OrderBook.sol).
 * That happens when a transaction the sender took for lost (its nonce used, its receipt nowhere to
 * be found) was mined after all and its matches were sent again. The sender then reports the match
 * mined in the transaction whose `OrdersMatched` log names its taker order, rather than failed.
 */
export function earlierSettlement(client: PublicClient, exchange: Address) {
  return {
    isAlreadySettled: (reason: RevertReason, fill: MatchFill) =>
      reason.name === 'TakerAlreadyMatched' && String(reason.args[0]).toLowerCase() === fill.takerHash.toLowerCase(),
    async findSettlement(fill: MatchFill): Promise<Hex | null> {
      const head = await client.getBlockNumber();
      const oldest = head > LOOKBACK_BLOCKS ? head - LOOKBACK_BLOCKS : 0n;
      // Newest blocks first: the match was most likely settled lately.
      for (let toBlock = head; ; ) {
        const fromBlock = toBlock - oldest >= LOG_WINDOW ? toBlock - LOG_WINDOW + 1n : oldest;
        const logs = await client.getLogs({ address: exchange, event: ORDERS_MATCHED, args: { takerOrderHash: fill.takerHash as Hex }, fromBlock, toBlock });
        const found = logs.at(-1)?.transactionHash;
        if (found) return found;
        if (fromBlock === oldest) return null;
        toBlock = fromBlock - 1n;
      }
    },
  };
}
