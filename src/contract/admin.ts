import { Type, type Static } from 'typebox';
import { DisplayAmount, DisplayAmountOut } from './amount.ts';
import { TickSizeSchema } from './catalogue.ts';
import { Address, DateTime, Nullable, oneOf, orNull, Uuid } from './common.ts';
import { TEMPLATE_PERIODS } from './formats.ts';
import { PairText, PriceText } from './prices.ts';

/** The operator's requests and answers (EXTENSIONS.md sections 3, 5, 11 and 13). */

const Bps = Type.Integer({ minimum: 0, maximum: 10_000, description: 'basis points' });

const Amount = Type.String({ maxLength: 40, description: 'collateral, decimal string in display units' });

const SPEED_BUMP_MAX_MS = 60_000;

const Liveness = Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'seconds, default 7200' });

const PriceTargetInputSchema = Type.Object({
  targetType: Type.Union([Type.Literal('CLOSE_PRICE'), Type.Literal('FIXED')]),
  pair: PairText,
  source: Type.Optional(Type.Union([Type.Literal('oracle'), Type.Literal('manual')], { default: 'oracle' })),
  targetPrice: Type.Optional(orNull<string>({ ...PriceText })),
  targetAt: Type.Optional(DateTime),
  resolveAt: Type.Optional(DateTime),
}, { additionalProperties: false });

export const MarketInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  description: Type.Optional(orNull<string>({ type: 'string', maxLength: 10_000 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  outcome1: Type.Optional(Type.String({ minLength: 1, maxLength: 50, default: 'Yes' })),
  outcome2: Type.Optional(Type.String({ minLength: 1, maxLength: 50, default: 'No' })),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  tickSize: Type.Optional(TickSizeSchema),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  speedBumpDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: SPEED_BUMP_MAX_MS, default: 0 })),
  displayTimezone: Type.Optional(orNull<string>({ type: 'string', maxLength: 64, description: 'IANA time zone' })),
  questionIndex: Type.Optional(orNull<number>({ type: 'integer', minimum: 0, maximum: 10_000 })),
  priceTargetConfig: Type.Optional(PriceTargetInputSchema),
}, { additionalProperties: false });

export const EventInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  description: Type.String({ maxLength: 10_000 }),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  negRisk: Type.Optional(Type.Boolean()),
  feeBips: Type.Optional(orNull<number>({ type: 'integer', minimum: 0, maximum: 10_000 })),
  protected: Type.Optional(Type.Boolean()),
  seriesLayout: Type.Optional(Type.Boolean()),
  categories: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  tags: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  reward: Type.Optional(Amount),
  proposalBond: Type.Optional(Amount),
  liveness: Type.Optional(Liveness),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  markets: Type.Array(MarketInputSchema, { minItems: 1, maxItems: 200 }),
}, { additionalProperties: false });

export const MarketPatchSchema = Type.Object({
  isPaused: Type.Optional(Type.Boolean()),
  hidden: Type.Optional(Type.Boolean()),
  speedBumpDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: SPEED_BUMP_MAX_MS })),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  tickSize: Type.Optional(TickSizeSchema),
  priceTargetConfig: Type.Optional(Type.Object({ targetPrice: PriceText }, { additionalProperties: false })),
}, { additionalProperties: false });

export const CategoryInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export const TagInputSchema = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 120 }),
  label: Type.String({ minLength: 1, maxLength: 100 }),
  type: Type.String({ minLength: 1, maxLength: 50 }),
}, { additionalProperties: false });

export const EventIdParams = Type.Object({ eventId: Uuid });

/**
 * POST /admin/prices (EXTENSIONS.md section 13): the operator records a reference price, with any
 * PRICE_FEED (with `manual` it is the only source). `at` defaults to now and may not be later.
 */
export const ReferencePriceInputSchema = Type.Object({ pair: PairText, price: PriceText, at: Type.Optional(DateTime) }, { additionalProperties: false });

/** The body and answer of the global pause. */
export const RewardsPauseSchema = Type.Object({ paused: Type.Boolean() }, { additionalProperties: false });

export const TreasuryBalanceSchema = Type.Object({ balance: DisplayAmountOut });

const Lead = Type.Integer({ minimum: 0, maximum: 96, description: 'periods published ahead of the current one' });

const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of market names, default UTC' });

/** RewardConfigInput (EXTENSIONS.md section 5) minus what each market's period fixes: date, window, boosts. */
const TemplateRewardsSchema = Type.Object({
  rewardUsdc: Type.String({ maxLength: 40 }),
  maxDistanceFromMid: Type.String({ maxLength: 40 }),
  extremeMaxDistanceFromMid: Type.Optional(Type.String({ maxLength: 40 })),
  minOrderSizeUsdc: Type.String({ maxLength: 40 }),
}, { additionalProperties: false });

export const TemplateInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.String({ maxLength: 10_000 }),
  pair: PairText,
  period: oneOf(TEMPLATE_PERIODS),
  firstStart: DateTime,
  lead: Type.Optional(Lead),
  displayTimezone: Type.Optional(Timezone),
  categories: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  tags: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  tickSize: Type.Optional(TickSizeSchema),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  reward: Type.Optional(Amount),
  proposalBond: Type.Optional(Amount),
  liveness: Type.Optional(Liveness),
  rewards: Type.Optional(TemplateRewardsSchema),
}, { additionalProperties: false });

export const TemplatePatchSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  lead: Type.Optional(Lead),
  displayTimezone: Type.Optional(Timezone),
  tickSize: Type.Optional(TickSizeSchema),
  orderFeeRateBps: Type.Optional(Bps),
  passiveOrderFeeRateBps: Type.Optional(Bps),
  rewards: Type.Optional(orNull<Static<typeof TemplateRewardsSchema>>({ ...TemplateRewardsSchema })),
}, { additionalProperties: false });

export const TemplateSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  pair: Type.String(),
  period: oneOf(TEMPLATE_PERIODS),
  firstStart: DateTime,
  lead: Type.Integer(),
  displayTimezone: Type.String(),
  categories: Type.Array(Uuid),
  tags: Type.Array(Uuid),
  tickSize: Type.String(),
  orderFeeRateBps: Nullable(Type.Integer()),
  passiveOrderFeeRateBps: Nullable(Type.Integer()),
  reward: Type.String(),
  proposalBond: Type.String(),
  liveness: Type.Integer(),
  rewards: Nullable(TemplateRewardsSchema),
  eventId: Uuid,
  enabled: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const TemplateIdParams = Type.Object({ templateId: Uuid });

/** POST /admin/clock: exactly one of the two (the manual clock of tests). */
export const ClockBody = Type.Object({
  advanceMs: Type.Optional(Type.Integer({ minimum: 0 })),
  now: Type.Optional(DateTime),
});
export const ClockResponse = Type.Object({ now: DateTime });

/** Makes an operator's deposit (a credit, the reward treasury's) once per key; one key names one deposit of either kind. */
const DepositKey = Type.Optional(Type.String({ format: 'uuid', description: 'makes the deposit once per key (a credit on a chain: its transfer too): the same request again (after a timeout or a 503) is answered with the balance now and moves nothing; the key with another address or amount is 409 CONFLICT' }));
/** POST /admin/credits: deposit collateral for the user of a sign-in address. */
export const CreditBody = Type.Object({ address: Address, amount: DisplayAmount, idempotencyKey: DepositKey });
/** POST /admin/rewards/treasury. */
export const TreasuryDepositBody = Type.Object({ amount: DisplayAmount, idempotencyKey: DepositKey });
export const CreditResponse = Type.Object({ address: Address, balance: DisplayAmountOut });
