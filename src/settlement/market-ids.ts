import { encodePacked, hexToBigInt, keccak256, type Address, type Hex } from 'viem';

/** The identifiers a settlement layer gives a binary market when it is initialised. */
export interface MarketIds {
  questionId: Hex;
  conditionId: Hex;
  /** Position id of outcome 1 (index set 0b01), a uint256 as a decimal string. */
  tokenId1: string;
  /** Position id of outcome 2 (index set 0b10), a uint256 as a decimal string. */
  tokenId2: string;
}

/**
 * Derives a binary market's ids the way the conditional-token framework does, with keccak:
 * questionId from the market's identity, conditionId = keccak(oracle, questionId, 2),
 * collectionId = keccak(parent 0, conditionId, indexSet), positionId = keccak(collateral, collectionId).
 * (CTF 1.x folds collection ids with an elliptic-curve sum so they commute across parents; with the
 * zero parent of a top-level binary market the keccak form here is enough and deterministic.)
 * The embedded settlement layer answers with this; a chain-backed one reads the contracts.
 */
export function deriveMarketIds(input: { marketUuid: string; oracle: Address; collateral: Address }): MarketIds {
  const questionId = keccak256(encodePacked(['string', 'string'], ['pmx-question-v1:', input.marketUuid]));
  const conditionId = keccak256(encodePacked(['address', 'bytes32', 'uint256'], [input.oracle, questionId, 2n]));
  const positionId = (indexSet: bigint) => {
    const collectionId = keccak256(encodePacked(['bytes32', 'bytes32', 'uint256'], [`0x${'0'.repeat(64)}`, conditionId, indexSet]));
    return hexToBigInt(keccak256(encodePacked(['address', 'bytes32'], [input.collateral, collectionId]))).toString();
  };
  return { questionId, conditionId, tokenId1: positionId(1n), tokenId2: positionId(2n) };
}
