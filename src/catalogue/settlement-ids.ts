import { keccak256, stringToHex, type Address } from 'viem';
import { deriveMarketIds } from '../settlement/market-ids.ts';
import type { MarketPublication } from '../store/catalogue-markets-repository.ts';

/**
 * What publishing gives a market on the embedded settlement layer: the condition, question and
 * token ids of the conditional-token framework, an on-chain market id (its condition id) and the
 * hash of the initialising transaction (deterministic, as the embedded layer has no chain).
 */
export function marketPublication(marketId: string, addresses: { oracle: Address; collateral: Address }): MarketPublication {
  const ids = deriveMarketIds({ marketUuid: marketId, oracle: addresses.oracle, collateral: addresses.collateral });
  return {
    id: marketId,
    conditionId: ids.conditionId,
    questionId: ids.questionId,
    tokenId1: ids.tokenId1,
    tokenId2: ids.tokenId2,
    onchainMarketId: ids.conditionId,
    transactionHash: keccak256(stringToHex(`pmx-initialize-v1:${marketId}`)),
  };
}

/** The on-chain id of an event (the neg-risk market id of a multi-market event). */
export function eventOnchainId(eventId: string): string {
  return keccak256(stringToHex(`pmx-event-v1:${eventId}`));
}
