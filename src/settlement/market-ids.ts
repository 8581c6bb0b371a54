import { encodePacked, hexToBigInt, keccak256, type Address, type Hex } from 'viem';
import { getConditionId, topLevelPositionId } from './ctf-ids.ts';

/** The identifiers a settlement layer gives a binary market when it is initialised. */
export interface MarketIds {
  questionId: Hex;
  conditionId: Hex;
  /** Position id of outcome 1 (index set 0b01), a uint256 as a decimal string. */
  tokenId1: string;
  /** Position id of outcome 2 (index set 0b10), a uint256 as a decimal string. */
  tokenId2: string;
}

export interface MarketIdsInput {
  marketUuid: string;
  oracle: Address;
  collateral: Address;
}

/** How a market's ids are derived: the keccak form (CHAIN=none) or ConditionalTokens' own (a real chain). */
export type MarketIdsDerivation = (input: MarketIdsInput) => MarketIds;

/** The question of a market, from its identity; the condition is the oracle's binary question on it. */
function binaryCondition(input: MarketIdsInput): { questionId: Hex; conditionId: Hex } {
  const questionId = keccak256(encodePacked(['string', 'string'], ['pmx-question-v1:', input.marketUuid]));
  return { questionId, conditionId: getConditionId(input.oracle, questionId, 2n) };
}

/**
 * Derives a binary market's ids the way the conditional-token framework does, with keccak:
 * questionId from the market's identity, conditionId = keccak(oracle, questionId, 2),
 * collectionId = keccak(parent 0, conditionId, indexSet), positionId = keccak(collateral, collectionId).
 * (CTF 1.x folds collection ids with an elliptic-curve sum: `deriveChainMarketIds` has the ids a
 * deployed ConditionalTokens mints.) The simulated settlement layer (CHAIN=none) keeps these.
 */
export function deriveMarketIds(input: MarketIdsInput): MarketIds {
  const { questionId, conditionId } = binaryCondition(input);
  const positionId = (indexSet: bigint) => {
    const collectionId = keccak256(encodePacked(['bytes32', 'bytes32', 'uint256'], [`0x${'0'.repeat(64)}`, conditionId, indexSet]));
    return hexToBigInt(keccak256(encodePacked(['address', 'bytes32'], [input.collateral, collectionId]))).toString();
  };
  return { questionId, conditionId, tokenId1: positionId(1n), tokenId2: positionId(2n) };
}

/** A binary market's ids as ConditionalTokens 1.0.3 computes them (src/settlement/ctf-ids.ts): the tokens it mints on a chain. */
export function deriveChainMarketIds(input: MarketIdsInput): MarketIds {
  const { questionId, conditionId } = binaryCondition(input);
  return {
    questionId,
    conditionId,
    tokenId1: topLevelPositionId(input.collateral, conditionId, 1n).toString(),
    tokenId2: topLevelPositionId(input.collateral, conditionId, 2n).toString(),
  };
}
