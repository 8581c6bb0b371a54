import { getAbiItem, type AbiEvent, type Address, type Hex, type PublicClient } from 'viem';
import type { RevertReason } from '../../settlement/chain/sender/index.ts';
import { recentLogTransaction } from '../../settlement/chain/recent-log.ts';
import { loadArtifact } from '../../settlement/contracts/index.ts';
import type { MatchFill } from './match-call.ts';

const ORDERS_MATCHED = getAbiItem({ abi: loadArtifact('PmxExchange').abi, name: 'OrdersMatched' }) as AbiEvent;

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
    findSettlement: (fill: MatchFill): Promise<Hex | null> => recentLogTransaction(client, { address: exchange, event: ORDERS_MATCHED, args: { takerOrderHash: fill.takerHash } }),
  };
}
