import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { badRequest, conflict, notFound } from '../contract/errors.ts';
import type { Clock } from '../clock.ts';
import { parseUnits } from '../core/money.ts';
import type { TickSize } from '../core/orders/order-price.ts';
import type { Db } from '../store/database.ts';
import { findEventRow, findTakenEventSlugs, insertEvent, updateEvent, type EventRow } from '../store/catalogue-events-repository.ts';
import { countMarketsOfEvent, findMarketById, findMarketsOfEvents, findTakenMarketSlugs, insertMarkets, publishMarkets, updateMarket, type MarketRow, type NewMarketRow } from '../store/catalogue-markets-repository.ts';
import { assignEventTaxonomy, findCategoryIds, findTagIds, insertCategory, insertTag } from '../store/catalogue-taxonomy-repository.ts';
import { findPriceTargets, insertPriceTargets, setTargetPrice, type PriceTargetRow } from '../store/price-targets-repository.ts';
import { isUniqueViolation } from '../store/unique-violation.ts';
import { priceTargetRow, targetPriceUnits, type PriceTargetInput } from './price-targets.ts';
import { allocateSlugs } from './slugs.ts';
import { eventOnchainId, marketPublication } from './settlement-ids.ts';
import { prepareDraftsOnChain, type MarketsOnChain } from './markets-on-chain.ts';
import { deriveMarketIds } from '../settlement/market-ids.ts';
import { toCategoryView, toTagView, type CategoryView, type TagView } from './views.ts';

/** EXTENSIONS.md section 3 inputs, after schema validation (types and ranges already checked). */
export interface MarketInput {
  name: string;
  slug?: string | undefined;
  description?: string | null | undefined;
  icon?: string | undefined;
  outcome1?: string | undefined;
  outcome2?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  tickSize?: TickSize | undefined;
  orderFeeRateBps?: number | undefined;
  passiveOrderFeeRateBps?: number | undefined;
  speedBumpDelayMs?: number | undefined;
  displayTimezone?: string | null | undefined;
  questionIndex?: number | null | undefined;
  priceTargetConfig?: PriceTargetInput | null | undefined;
}

export interface EventInput {
  name: string;
  slug?: string | undefined;
  description: string;
  icon?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  negRisk?: boolean | undefined;
  feeBips?: number | null | undefined;
  protected?: boolean | undefined;
  seriesLayout?: boolean | undefined;
  categories?: string[] | undefined;
  tags?: string[] | undefined;
  metadata?: object | undefined;
  reward?: string | undefined;
  proposalBond?: string | undefined;
  liveness?: number | undefined;
  orderFeeRateBps?: number | undefined;
  passiveOrderFeeRateBps?: number | undefined;
  markets: MarketInput[];
  /** Set by src/templates only: the template that owns this series event. */
  templateId?: string | undefined;
}

export interface MarketPatch {
  isPaused?: boolean | undefined;
  hidden?: boolean | undefined;
  speedBumpDelayMs?: number | undefined;
  orderFeeRateBps?: number | undefined;
  passiveOrderFeeRateBps?: number | undefined;
  tickSize?: TickSize | undefined;
  /** The operator sets (or corrects) a target before the market is proposed. */
  priceTargetConfig?: { targetPrice: string } | undefined;
}

export interface CategoryInput { name: string; position?: number | undefined; active?: boolean | undefined }
export interface TagInput { slug: string; label: string; type: string }

export const DEFAULT_LIVENESS_SECONDS = 7200;
const DEFAULT_TICK_SIZE: TickSize = '0.01';

export interface CatalogueAdminDeps {
  db: Db;
  clock: Clock;
  operatorUserId: string;
  oracle: Address;
  collateral: Address;
  /** A chain to prepare markets on before they are published (CHAIN=embedded or rpc); without one, the simulated ids. */
  chain?: MarketsOnChain | undefined;
  /** Told, after the change commits, of markets that were published or patched. */
  onMarketsChanged?: ((marketIds: string[]) => Promise<void>) | undefined;
}

export interface CatalogueAdmin {
  createCategory(input: CategoryInput): Promise<CategoryView>;
  createTag(input: TagInput): Promise<TagView>;
  /** Creates a DRAFT event with DRAFT markets; returns its id. */
  createEvent(input: EventInput): Promise<string>;
  /**
   * Adds a DRAFT market to an event; returns its id. `within` runs in the same transaction after
   * the insert (src/templates claims the period there, so a clash rolls the market back too).
   */
  addMarket(eventId: string, input: MarketInput, within?: (trx: Db, marketId: string) => Promise<void>): Promise<string>;
  /** Makes the event and its DRAFT markets ACTIVE with their settlement ids; idempotent. */
  publishEvent(eventId: string): Promise<void>;
  patchMarket(marketId: string, patch: MarketPatch): Promise<void>;
}

/** Event amounts are stored as bigint base units: anything larger is refused, not a database error. */
const MAX_EVENT_AMOUNT_BASE_UNITS = 2n ** 63n - 1n;

function amount(value: string | undefined, name: string): bigint {
  if (value === undefined) return 0n;
  const units = parseUnits(value);
  if (units === undefined) throw badRequest(`${name} must be a non-negative decimal with at most 6 decimals`);
  if (units > MAX_EVENT_AMOUNT_BASE_UNITS) throw badRequest(`${name} must be at most ${MAX_EVENT_AMOUNT_BASE_UNITS} base units`);
  return units;
}

/** An IANA time zone in its canonical spelling; null when absent; 400 when unknown. */
export function ianaTimezone(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw badRequest(`displayTimezone "${value}" is not an IANA time zone`);
  }
}

/**
 * How deep an event's free-form `metadata` may nest. Storing and serialising JSON recurse once a
 * level (JSON.stringify, PostgreSQL's jsonb): thousands of levels overflowed a stack, or wedged
 * the embedded database, where this refuses them with 400.
 */
const METADATA_MAX_DEPTH = 32;

function checkMetadataDepth(metadata: object | undefined): void {
  let level: unknown[] = metadata === undefined ? [] : [metadata];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > METADATA_MAX_DEPTH) throw badRequest(`metadata nests deeper than ${METADATA_MAX_DEPTH} levels`);
    level = level.flatMap((value) => (value !== null && typeof value === 'object' ? Object.values(value) : []));
  }
}

function checkDates(start: Date | null, end: Date | null, what: string): void {
  if (start && end && end.getTime() < start.getTime()) throw badRequest(`${what} endDate is before its startDate`);
}

const ancillaryData = (title: string, description: string | null) => `q: title: ${title}, description: ${description ?? ''}`;

/** How often a create whose slugs another create took meanwhile is tried again. */
const SLUG_RACE_ATTEMPTS = 10;

/**
 * Runs a create that allocates its slugs and inserts its rows, again when another create took one
 * of those slugs between the two (a unique-index violation): generated slugs are then allocated
 * anew, while a given slug is found taken (409). Past the attempts, 409.
 */
async function slugRace<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt === SLUG_RACE_ATTEMPTS) throw conflict('a slug is taken');
    }
  }
}

export function createCatalogueAdmin(deps: CatalogueAdminDeps): CatalogueAdmin {
  const { db, clock } = deps;
  const now = () => new Date(clock.nowMs());
  const notify = async (ids: string[]) => {
    if (ids.length > 0 && deps.onMarketsChanged) await deps.onMarketsChanged(ids);
  };

  /** New market rows and their price targets; `executor` is the transaction they will be inserted in (PGlite has one connection). */
  async function marketRows(executor: Db, event: EventRow, inputs: MarketInput[], firstPosition: number, at: Date): Promise<{ markets: NewMarketRow[]; targets: PriceTargetRow[] }> {
    const slugs = await allocateSlugs(inputs.map((m) => ({ given: m.slug, name: m.name })), 'market', (c) => findTakenMarketSlugs(executor, c));
    const targets: PriceTargetRow[] = [];
    const markets = inputs.map((m, i): NewMarketRow => {
      const start = m.startDate ? new Date(m.startDate) : event.start_date;
      const end = m.endDate ? new Date(m.endDate) : event.end_date;
      checkDates(start, end, `market "${m.name}"`);
      const description = m.description ?? null;
      const id = randomUUID();
      if (m.priceTargetConfig) targets.push(priceTargetRow(id, m.priceTargetConfig, start, end, `market "${m.name}" priceTargetConfig`));
      return {
        id,
        event_id: event.id,
        position: firstPosition + i,
        slug: slugs[i]!,
        name: m.name,
        description,
        icon: m.icon ?? event.icon,
        status: 'DRAFT',
        start_date: start,
        end_date: end,
        neg_risk: event.neg_risk,
        tick_size: m.tickSize ?? DEFAULT_TICK_SIZE,
        order_fee_rate_bps: m.orderFeeRateBps ?? event.order_fee_rate_bps,
        passive_order_fee_rate_bps: m.passiveOrderFeeRateBps ?? event.passive_order_fee_rate_bps,
        speed_bump_delay_ms: m.speedBumpDelayMs ?? 0,
        outcome1: m.outcome1 ?? 'Yes',
        outcome2: m.outcome2 ?? 'No',
        ancillary_data: ancillaryData(event.single ? event.name : `${event.name} - ${m.name}`, description ?? event.description),
        display_timezone: ianaTimezone(m.displayTimezone),
        question_index: m.questionIndex ?? null,
        created_by: deps.operatorUserId,
        created_at: at,
        updated_at: at,
      };
    });
    return { markets, targets };
  }

  async function checkTaxonomy(categories: string[], tags: string[]): Promise<void> {
    const [foundCategories, foundTags] = await Promise.all([findCategoryIds(db, categories), findTagIds(db, tags)]);
    const unknownCategory = categories.find((id) => !foundCategories.has(id));
    if (unknownCategory) throw badRequest(`unknown category ${unknownCategory}`);
    const unknownTag = tags.find((id) => !foundTags.has(id));
    if (unknownTag) throw badRequest(`unknown tag ${unknownTag}`);
  }

  /** A target the operator sets: only on a price-target market that has no proposal yet. */
  async function setOperatorTarget(marketId: string, text: string): Promise<void> {
    const units = targetPriceUnits(text, 'priceTargetConfig.targetPrice');
    const market = await findMarketById(db, marketId);
    if (!market) throw notFound('market');
    const final = () => conflict('the market already has a proposal; its target is final');
    if (market.status === 'RESOLVED' || market.has_proposed_price) throw final();
    if (await setTargetPrice(db, marketId, units, false)) return;
    // The price job made it final an instant ago, on its way to propose from it.
    if ((await findPriceTargets(db, [marketId])).get(marketId)?.final_at) throw final();
    throw badRequest('the market has no priceTargetConfig');
  }

  return {
    async createCategory(input) {
      const at = now();
      const row = await insertCategory(db, {
        id: randomUUID(), name: input.name, position: input.position ?? 0, active: input.active ?? true,
        created_by: deps.operatorUserId, updated_by: null, created_at: at, updated_at: at,
      });
      return toCategoryView(row);
    },

    async createTag(input) {
      const [slug] = await allocateSlugs([{ given: input.slug, name: input.label }], 'tag', async () => new Set());
      const row = await insertTag(db, { id: randomUUID(), slug: slug!, label: input.label, type: input.type, created_at: now() });
      if (!row) throw conflict(`tag slug "${input.slug}" is taken`);
      return toTagView(row);
    },

    async createEvent(input) {
      const categories = [...new Set((input.categories ?? []).map((id) => id.toLowerCase()))];
      const tags = [...new Set((input.tags ?? []).map((id) => id.toLowerCase()))];
      await checkTaxonomy(categories, tags);
      const at = now();
      const startDate = input.startDate ? new Date(input.startDate) : at;
      const endDate = input.endDate ? new Date(input.endDate) : null;
      checkDates(startDate, endDate, 'the event');
      checkMetadataDepth(input.metadata);
      const fields: Omit<EventRow, 'slug'> = {
        id: randomUUID(),
        name: input.name,
        description: input.description,
        icon: input.icon ?? '',
        status: 'DRAFT',
        start_date: startDate,
        end_date: endDate,
        protected: input.protected ?? false,
        single: input.markets.length === 1,
        neg_risk: input.negRisk ?? false,
        series_layout: input.seriesLayout ?? false,
        is_determined: false,
        is_initialized: false,
        winning_market_id: null,
        fee_bips: input.feeBips ?? null,
        reward_base_units: amount(input.reward, 'reward'),
        proposal_bond_base_units: amount(input.proposalBond, 'proposalBond'),
        liveness_seconds: input.liveness ?? DEFAULT_LIVENESS_SECONDS,
        order_fee_rate_bps: input.orderFeeRateBps ?? 0,
        passive_order_fee_rate_bps: input.passiveOrderFeeRateBps ?? 0,
        onchain_market_id: '',
        ancillary_data: ancillaryData(input.name, input.description),
        metadata: input.metadata ?? null,
        template_id: input.templateId ?? null,
        created_by: deps.operatorUserId,
        created_at: at,
        updated_at: at,
      };
      await slugRace(async () => {
        const [slug] = await allocateSlugs([{ given: input.slug, name: input.name }], 'event', (c) => findTakenEventSlugs(db, c));
        const event: EventRow = { ...fields, slug: slug! };
        const { markets, targets } = await marketRows(db, event, input.markets, 0, at);
        await db.transaction().execute(async (trx) => {
          await insertEvent(trx, { ...event, metadata: event.metadata === null ? null : JSON.stringify(event.metadata) });
          await assignEventTaxonomy(trx, event.id, categories, tags);
          await insertMarkets(trx, markets);
          await insertPriceTargets(trx, targets);
        });
      });
      return fields.id;
    },

    async addMarket(eventId, input, within) {
      const event = await findEventRow(db, eventId);
      if (!event) throw notFound('event');
      if (event.status === 'RESOLVED') throw conflict('the event is resolved');
      const at = now();
      const id = await slugRace(() => db.transaction().execute(async (trx) => {
        const count = await countMarketsOfEvent(trx, eventId);
        const { markets: [row], targets } = await marketRows(trx, { ...event, single: count === 0 }, [input], count, at);
        await insertMarkets(trx, [row!]);
        await insertPriceTargets(trx, targets);
        await updateEvent(trx, eventId, { single: count + 1 === 1, updated_at: at });
        await within?.(trx, row!.id);
        return row!.id;
      }));
      return id;
    },

    async publishEvent(eventId) {
      const at = now();
      // On a chain a market is published (isInitialized) only once it is prepared there: a draft
      // added meanwhile stays a draft until the next publish prepares it.
      const onChain = deps.chain ? await prepareDraftsOnChain(db, deps.chain, eventId, deps.collateral) : undefined;
      const publication = (m: MarketRow) => {
        if (!onChain) return marketPublication(m.id, deriveMarketIds({ marketUuid: m.id, oracle: deps.oracle, collateral: deps.collateral }));
        const prepared = onChain.get(m.id);
        return prepared && marketPublication(m.id, prepared.ids, prepared.transactionHash);
      };
      const published = await db.transaction().execute(async (trx) => {
        const event = await findEventRow(trx, eventId);
        if (!event) throw notFound('event');
        const drafts = (await findMarketsOfEvents(trx, [eventId], true)).filter((m: MarketRow) => m.status === 'DRAFT');
        const ids = await publishMarkets(trx, drafts.flatMap((m) => publication(m) ?? []), at);
        if (event.status === 'DRAFT') {
          await updateEvent(trx, eventId, { status: 'ACTIVE', is_initialized: true, onchain_market_id: eventOnchainId(eventId), updated_at: at });
        }
        return ids;
      });
      await notify(published);
    },

    async patchMarket(marketId, patch) {
      const changes = {
        ...(patch.isPaused !== undefined ? { is_paused: patch.isPaused } : {}),
        ...(patch.hidden !== undefined ? { hidden: patch.hidden } : {}),
        ...(patch.speedBumpDelayMs !== undefined ? { speed_bump_delay_ms: patch.speedBumpDelayMs } : {}),
        ...(patch.orderFeeRateBps !== undefined ? { order_fee_rate_bps: patch.orderFeeRateBps } : {}),
        ...(patch.passiveOrderFeeRateBps !== undefined ? { passive_order_fee_rate_bps: patch.passiveOrderFeeRateBps } : {}),
        ...(patch.tickSize !== undefined ? { tick_size: patch.tickSize } : {}),
      };
      if (patch.priceTargetConfig) await setOperatorTarget(marketId, patch.priceTargetConfig.targetPrice);
      if (Object.keys(changes).length === 0) {
        if (!(await findMarketById(db, marketId))) throw notFound('market');
        return;
      }
      const row = await updateMarket(db, marketId, { ...changes, updated_at: now() });
      if (!row) throw notFound('market');
      await notify([marketId]);
    },
  };
}
