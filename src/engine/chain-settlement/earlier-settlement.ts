import { parseAbiItem, type Address, type Hex, type PublicClient } from 'viem';
import type { RevertReason } from '../../settlement/chain/sender/index.ts';
import type { MatchFill } from './match-call.ts';

const ORDERS_MATCHED = parseAbiItem(
  'event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled)',
);
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
      for (let toBlock = head; toBlock >= oldest; toBlock -= LOG_WINDOW) {
        const fromBlock = toBlock - oldest >= LOG_WINDOW ? toBlock - LOG_WINDOW + 1n : oldest;
        const logs = await client.getLogs({ address: exchange, event: ORDERS_MATCHED, args: { takerOrderHash: fill.takerHash as Hex }, fromBlock, toBlock });
        const found = logs.at(-1)?.transactionHash;
        if (found) return found;
        if (fromBlock === oldest) break;
      }
      return null;
    },
  };
}
