/**
 * The market fields of RedeemablePosition and MergeablePosition (SPEC.md section 2), selected
 * from `markets as m` under their API names, so both listings share one row shape.
 */
export const POSITION_MARKET_COLUMNS = [
  'm.id as marketId', 'm.onchain_market_id as onchainMarketId', 'm.condition_id as conditionId',
  'm.token_id1 as tokenId1', 'm.token_id2 as tokenId2', 'm.slug as slug', 'm.name as name',
] as const;

export interface PositionMarketRef {
  marketId: string;
  onchainMarketId: string;
  conditionId: string;
  tokenId1: string;
  tokenId2: string;
  slug: string;
  name: string;
}
