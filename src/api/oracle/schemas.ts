import { Type } from 'typebox';
import { OracleOutcome } from '../catalogue/schemas.ts';
import { Uuid } from '../schemas/common.ts';

export { ResolutionSchema } from '../catalogue/schemas.ts';

export const MarketIdParams = Type.Object({ marketId: Uuid });
export const OutcomeBody = Type.Object({ outcome: OracleOutcome });
