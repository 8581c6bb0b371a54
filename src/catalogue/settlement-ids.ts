import { keccak256, stringToHex, type Hex } from 'viem';
import type { MarketIds } from '../settlement/market-ids.ts';
import type { MarketPublication } from '../store/catalogue-markets-repository.ts';

/**
 * What publishing gives a market: the condition, question and token ids of the conditional-token
 * framework, an on-chain market id (its condition id) and the hash of the initialising
 * transaction: the chain's when the market was prepared on one, else a deterministic stand-in
 * (the simulated settlement layer has no chain).
 */
export function marketPublication(marketId: string, ids: MarketIds, transactionHash?: Hex): MarketPublication {
  return {
    id: marketId,
    conditionId: ids.conditionId,
    questionId: ids.questionId,
    tokenId1: ids.tokenId1,
    tokenId2: ids.tokenId2,
    onchainMarketId: ids.conditionId,
    transactionHash: transactionHash ?? keccak256(stringToHex(`pmx-initialize-v1:${marketId}`)),
  };
}

/** The on-chain id of an event (the neg-risk market id of a multi-market event). */
export function eventOnchainId(eventId: string): string {
  return keccak256(stringToHex(`pmx-event-v1:${eventId}`));
}
