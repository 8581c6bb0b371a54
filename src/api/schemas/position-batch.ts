import { Type } from 'typebox';
import { badRequest } from '../../contract/errors.ts';
import { Uuid } from './common.ts';

/** The hard maximum of a redeem or merge batch (SPEC.md section 8); POSITION_BATCH_MAX (default 50) applies below it. */
const HARD_BATCH_MAX = 200;

/** RedeemablePosition and MergeablePosition (SPEC.md section 2) share this shape. */
export const PositionMarketSchema = Type.Object({
  marketId: Uuid,
  onchainMarketId: Type.String(),
  conditionId: Type.String(),
  tokenId1: Type.String(),
  tokenId2: Type.String(),
  slug: Type.String(),
  name: Type.String(),
});

/** The body of batch redeem and batch merge: `{marketIds}`, 1 to the hard maximum. */
export const PositionBatchBody = Type.Object({ marketIds: Type.Array(Uuid, { minItems: 1, maxItems: HARD_BATCH_MAX }) });

/** The rules the schema cannot hold: at most POSITION_BATCH_MAX ids, each once (case-insensitively). */
export function checkPositionBatch(marketIds: string[], batchMax: number): void {
  if (marketIds.length > batchMax) throw badRequest(`marketIds: at most ${batchMax} markets per batch`);
  if (new Set(marketIds.map((id) => id.toLowerCase())).size !== marketIds.length) throw badRequest('marketIds must be unique');
}

/** BatchRedeemResponse and BatchMergeResponse: one transaction hash, what was included, what was not and why. */
export const batchResponseSchema = <const R extends readonly [string, ...string[]]>(reasons: R) => Type.Object({
  txHash: Type.String({ description: 'the one ledger transaction of every included market; "" when none was included' }),
  included: Type.Array(Uuid),
  excluded: Type.Array(Type.Object({ marketId: Uuid, reason: Type.Enum(reasons) })),
});
