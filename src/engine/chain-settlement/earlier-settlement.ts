import { getAbiItem, type AbiEvent, type Address, type Hex, type PublicClient } from 'viem';
import type { RevertReason } from '../../settlement/chain/sender/index.ts';
import { recentLogTransaction } from '../../settlement/chain/recent-log.ts';
import { loadArtifact } from '../../settlement/contracts/index.ts';
import type { MatchFill } from './match-call.ts';

const EXCHANGE_ABI = loadArtifact('PmxExchange').abi;
const ORDERS_MATCHED = getAbiItem({ abi: EXCHANGE_ABI, name: 'OrdersMatched' }) as AbiEvent;
const ORDERS_MATCHED_PART = getAbiItem({ abi: EXCHANGE_ABI, name: 'OrdersMatchedPart' }) as AbiEvent;

/**
 * A match the exchange already settled: each part of a taker order's match settles once, and the
 * contract refuses it again with `TakerAlreadyMatched(takerOrderHash, part)`
 * (contracts/exchange/OrderBook.sol). That happens when a transaction the sender took for lost
 * (its nonce used, its receipt nowhere to be found) was mined after all and its matches were sent
 * again. The sender then reports the match mined in the transaction that settled it, rather than
 * failed: the one whose `OrdersMatchedPart` log names the taker order and the part, or for part 0
 * (which has none) whose `OrdersMatched` log names the taker order and is not a later part's.
 */
export function earlierSettlement(client: PublicClient, exchange: Address) {
  return {
    isAlreadySettled: (reason: RevertReason, fill: MatchFill) =>
      reason.name === 'TakerAlreadyMatched' && String(reason.args[0]).toLowerCase() === fill.takerHash.toLowerCase() && reason.args[1] === fill.call.part,
    findSettlement: (fill: MatchFill): Promise<Hex | null> => {
      const takerOrderHash = fill.takerHash;
      if (fill.call.part !== 0n) return recentLogTransaction(client, { address: exchange, event: ORDERS_MATCHED_PART, args: { takerOrderHash, part: fill.call.part } });
      return recentLogTransaction(client, {
        address: exchange,
        event: ORDERS_MATCHED,
        args: { takerOrderHash },
        // A later part's OrdersMatched is followed by its OrdersMatchedPart.
        accept: async (log) => {
          const parts = await client.getLogs({ address: exchange, event: ORDERS_MATCHED_PART, args: { takerOrderHash }, blockHash: log.blockHash! });
          return !parts.some((part) => part.transactionHash === log.transactionHash && part.logIndex === log.logIndex! + 1);
        },
      });
    },
  };
}
