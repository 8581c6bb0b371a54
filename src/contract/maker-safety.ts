import { Type, type Static } from 'typebox';
import { DisplayAmount, DisplayAmountOut } from './amount.ts';
import { DateTime, Nullable, Uuid } from './common.ts';

/** Request and response shapes of market makers' safety (EXTENSIONS.md section 15). */
export const HEARTBEAT_TIMEOUT = { defaultMs: 10_000, minMs: 5_000, maxMs: 60_000 } as const;

/** The body is optional: Fastify validates a request without one as null. */
export const HeartbeatBody = Type.Union([
  Type.Object({
    timeoutMs: Type.Optional(Type.Integer({ minimum: HEARTBEAT_TIMEOUT.minMs, maximum: HEARTBEAT_TIMEOUT.maxMs, description: `default ${HEARTBEAT_TIMEOUT.defaultMs}` })),
  }),
  Type.Null(),
]);

export const HeartbeatResponse = Type.Object({
  armed: Type.Literal(true),
  expiresAt: DateTime,
});

export const MmpScopeSchema = Type.Union([
  Type.Object({ marketId: Uuid }, { additionalProperties: false }),
  Type.Object({ eventId: Uuid }, { additionalProperties: false }),
], { description: 'one market, or every market of one event' });

/** Bounds that keep every setting meaningful and its amounts inside a bigint of base units. */
const MMP_WINDOW_MAX_MS = 3_600_000;
const MMP_FROZEN_MAX_MS = 86_400_000;

export const MmpSetBody = Type.Object({
  scope: MmpScopeSchema,
  windowMs: Type.Integer({ minimum: 1, maximum: MMP_WINDOW_MAX_MS, description: 'the sliding window fills are counted in' }),
  maxFills: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'fills of the key’s resting orders in the window' })),
  maxQuantity: Type.Optional({ ...DisplayAmount, description: 'outcome tokens filled in the window: a decimal string, at most 6 decimals, above 0' }),
  maxNotionalUsd: Type.Optional({ ...DisplayAmount, description: 'USD notional (price × size at the resting order’s price) filled in the window: a decimal string, above 0' }),
  frozenMs: Type.Integer({ minimum: 0, maximum: MMP_FROZEN_MAX_MS, description: 'how long new orders in the scope are refused (MMP_FROZEN) after a trip' }),
}, { description: 'at least one of maxFills, maxQuantity and maxNotionalUsd' });
export type MmpSetRequest = Static<typeof MmpSetBody>;

export const MmpRemoveBody = Type.Object({ scope: MmpScopeSchema });

export const MmpSettingSchema = Type.Object({
  scope: MmpScopeSchema,
  windowMs: Type.Integer(),
  maxFills: Type.Optional(Type.Integer()),
  maxQuantity: Type.Optional(DisplayAmountOut),
  maxNotionalUsd: Type.Optional(DisplayAmountOut),
  frozenMs: Type.Integer(),
  frozenUntil: Nullable(DateTime),
});

export const MmpSettingsResponse = Type.Array(MmpSettingSchema);
