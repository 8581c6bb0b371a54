import type { Clock } from '../clock.ts';
import { addedSinceMs, endsWindow, type AddedWithin, type EndsWindow } from '../core/calendar.ts';
import { complementPrice, formatUnits, priceToNumber, unitsFromNumber, unitsToNumber } from '../core/money.ts';
import { badRequest, notFound } from '../contract/errors.ts';
import type { Db } from '../store/database.ts';
import { findEvent, listEvents, type EventReadRow, type EventSortKey, type EventStatus } from '../store/catalogue-events-repository.ts';
import { findCurrentMarketsOfEvents, findMarketById, findMarketBySlug, findMarketsByIds, findMarketsOfEvents, findRecentMarketsOfEvent, type MarketRow } from '../store/catalogue-markets-repository.ts';
import { findPriceTargets } from '../store/price-targets-repository.ts';
import { toPriceTargetView, type PriceTargetView } from './price-targets.ts';
import { eventVolume, marketTradeMarks, marketVolumes } from '../store/catalogue-stats-repository.ts';
import { findCategoriesOfEvents, findTagsOfEvents, listCategories, listTags } from '../store/catalogue-taxonomy-repository.ts';
import { toResolutionView } from '../core/oracle/resolution-view.ts';
import { UNPROPOSED } from '../core/oracle/state-machine.ts';
import { findQuestions } from '../store/oracle-questions-repository.ts';
import { toCategoryView, toEventView, toMarketView, toTagView, type CategoryView, type EventView, type TagView, type MarketRewardShape, type MarketView, type MarketVolumeView } from './views.ts';

/**
 * Public reads of the catalogue. `admin` is true for the operator's token: DRAFT rows are
 * included and marketScope defaults to ALL (EXTENSIONS.md section 11); everyone else never sees
 * a DRAFT event or market.
 */
export const EVENTS_TOTAL_CAP = 10_000;
const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventListParams {
  eventStatus?: EventStatus | undefined;
  term?: string | undefined;
  category?: string | undefined;
  tag?: string | undefined;
  ends?: EndsWindow | undefined;
  addedWithin?: AddedWithin | undefined;
  minLiquidity?: number | undefined;
  maxLiquidity?: number | undefined;
  isSettled?: boolean | undefined;
  isResolved?: boolean | undefined;
  endDateFrom?: string | undefined;
  endDateTo?: string | undefined;
  includeVolume?: boolean | undefined;
  includeResolution?: boolean | undefined;
  includeRewards?: boolean | undefined;
  protected?: boolean | undefined;
  single?: boolean | undefined;
  sortBy?: EventSortKey | undefined;
  order?: 'ASC' | 'DESC' | undefined;
  page: number;
  limit: number;
  total: boolean;
}

export interface EventPage {
  data: EventView[];
  total: number | null;
  totalCapped: boolean;
  page: number;
  limit: number;
}

export type MarketScope = 'AUTO' | 'RECENT' | 'ALL';

export interface EventReadParams {
  includeVolume?: boolean | undefined;
  includeResolution?: boolean | undefined;
  includeRewards?: boolean | undefined;
  marketScope?: MarketScope | undefined;
  marketLimit: number;
}

interface MarketOptions {
  includeVolume?: boolean | undefined;
  includeResolution?: boolean | undefined;
  includeRewards?: boolean | undefined;
}

export interface CatalogueReads {
  listEvents(params: EventListParams, admin: boolean): Promise<EventPage>;
  getEvent(idOrSlug: string, params: EventReadParams, admin: boolean): Promise<EventView>;
  /** Total USD volume of an event, as the number SPEC.md returns. */
  getEventVolume(idOrSlug: string, admin: boolean): Promise<number>;
  listMarkets(ids: string[], admin: boolean): Promise<MarketView[]>;
  getMarket(idOrSlug: string, admin: boolean): Promise<MarketView>;
  getMarketVolume(marketId: string, admin: boolean): Promise<MarketVolumeView>;
  /** Every category (the operator's list: inactive ones included). */
  listCategories(): Promise<CategoryView[]>;
  listTags(): Promise<TagView[]>;
}

function liquidityBound(value: number | undefined, name: string): bigint | undefined {
  if (value === undefined) return undefined;
  const units = unitsFromNumber(value);
  if (units === undefined) throw badRequest(`${name} must be a non-negative USD amount`);
  return units;
}

function chanceOf(row: MarketRow, last: { tokenId: string; priceMicros: bigint } | undefined): number {
  if (!last) return 0.5;
  return priceToNumber(last.tokenId === row.token_id2 ? complementPrice(last.priceMicros) : last.priceMicros);
}

/** Markets' current reward opportunities (SPEC.md MarketReward) by market id; absent means none. */
export type MarketRewardLookup = (marketIds: string[]) => Promise<Map<string, MarketRewardShape>>;

const noRewards: MarketRewardLookup = async () => new Map();

/** Markets' price targets by market id (absent: none); src/prices derives CLOSE_PRICE targets as it reads. */
export type PriceTargetLookup = (marketIds: string[]) => Promise<Map<string, PriceTargetView>>;

export function createCatalogueReads(db: Db, clock: Clock, marketRewards: MarketRewardLookup = noRewards, priceTargets?: PriceTargetLookup): CatalogueReads {
  const targetsOf: PriceTargetLookup = priceTargets ?? (async (ids) => new Map([...(await findPriceTargets(db, ids))].map(([id, row]) => [id, toPriceTargetView(row)])));
  const times = () => {
    const nowMs = clock.nowMs();
    return { nowMs, now: new Date(nowMs), since24h: new Date(nowMs - DAY_MS) };
  };

  async function marketViews(rows: MarketRow[], options: MarketOptions): Promise<MarketView[]> {
    const ids = rows.map((r) => r.id);
    const [marks, targets, volumes, questions, rewards] = await Promise.all([
      marketTradeMarks(db, ids),
      targetsOf(ids),
      options.includeVolume ? marketVolumes(db, ids, times().since24h) : Promise.resolve(undefined),
      options.includeResolution ? findQuestions(db, ids) : Promise.resolve(undefined),
      options.includeRewards ? marketRewards(ids) : Promise.resolve(undefined),
    ]);
    return rows.map((row) => toMarketView(row, {
      chance: chanceOf(row, marks.get(row.id)?.last),
      firstTradeAt: marks.get(row.id)?.firstMatchedAt,
      volume: volumes ? (volumes.get(row.id) ?? { totalBaseUnits: 0n, last24hBaseUnits: 0n }) : undefined,
      // The oracle module owns questions; a market without one is UNPROPOSED.
      resolution: questions ? toResolutionView(row.id, questions.get(row.id) ?? UNPROPOSED) : undefined,
      reward: rewards ? (rewards.get(row.id) ?? null) : undefined,
      priceTarget: targets.get(row.id),
    }));
  }

  async function eventViews(events: EventReadRow[], markets: MarketRow[], options: MarketOptions): Promise<EventView[]> {
    const ids = events.map((e) => e.id);
    const [categories, tags, views, currentTargets] = await Promise.all([
      findCategoriesOfEvents(db, ids),
      findTagsOfEvents(db, ids),
      marketViews(markets, options),
      currentTargetPrices(events),
    ]);
    return events.map((event) => toEventView(event, {
      categories: categories.filter((c) => c.event_id === event.id).map(toCategoryView),
      tags: tags.filter((t) => t.event_id === event.id).map(toTagView),
      markets: views.filter((m) => m.eventId === event.id),
      currentTargetPrice: currentTargets.get(event.id),
    }));
  }

  /** Series events: the target of the market running now (started, not ended), when known. */
  async function currentTargetPrices(events: EventReadRow[]): Promise<Map<string, string>> {
    const series = events.filter((e) => e.series_layout).map((e) => e.id);
    if (series.length === 0) return new Map();
    const current = await findCurrentMarketsOfEvents(db, series, times().now);
    const targets = await targetsOf(current.map((m) => m.id));
    const out = new Map<string, string>();
    for (const market of current) {
      const price = targets.get(market.id)?.targetPrice;
      if (price) out.set(market.event_id, price);
    }
    return out;
  }

  async function resolveEvent(idOrSlug: string, admin: boolean): Promise<EventReadRow> {
    const { now, since24h } = times();
    const options = { now, since24h, includeDraft: admin };
    const event = (UUID.test(idOrSlug) ? await findEvent(db, { id: idOrSlug.toLowerCase() }, options) : undefined)
      ?? await findEvent(db, { slug: idOrSlug }, options);
    if (!event) throw notFound('event');
    return event;
  }

  async function resolveMarket(idOrSlug: string, admin: boolean): Promise<MarketRow> {
    const row = (UUID.test(idOrSlug) ? await findMarketById(db, idOrSlug.toLowerCase()) : undefined) ?? await findMarketBySlug(db, idOrSlug);
    if (!row || (!admin && row.status === 'DRAFT')) throw notFound('market');
    return row;
  }

  return {
    async listEvents(params, admin) {
      if (params.sortBy === 'liquidity' && params.minLiquidity === undefined && params.maxLiquidity === undefined) {
        throw badRequest('sortBy=liquidity needs minLiquidity or maxLiquidity');
      }
      const { nowMs, now, since24h } = times();
      const ends = params.ends ? endsWindow(params.ends, nowMs) : undefined;
      const { rows, total, totalCapped } = await listEvents(db, {
        now,
        since24h,
        includeDraft: admin,
        includeProtected: params.protected ?? false,
        status: params.eventStatus,
        term: params.term,
        categoryId: params.category,
        tagId: params.tag,
        endsWithin: ends ? { from: new Date(ends.fromMs), to: new Date(ends.toMs) } : undefined,
        endDateFrom: params.endDateFrom ? new Date(params.endDateFrom) : undefined,
        endDateTo: params.endDateTo ? new Date(params.endDateTo) : undefined,
        createdSince: params.addedWithin ? new Date(addedSinceMs(params.addedWithin, nowMs)) : undefined,
        minLiquidityBaseUnits: liquidityBound(params.minLiquidity, 'minLiquidity'),
        maxLiquidityBaseUnits: liquidityBound(params.maxLiquidity, 'maxLiquidity'),
        isSettled: params.isSettled,
        isResolved: params.isResolved,
        single: params.single,
        sortBy: params.sortBy ?? 'createdAt',
        order: params.order ?? 'DESC',
        offset: (params.page - 1) * params.limit,
        limit: params.limit,
        countCap: params.total ? EVENTS_TOTAL_CAP : undefined,
      });
      const markets = await findMarketsOfEvents(db, rows.map((r) => r.id), admin);
      const data = await eventViews(rows, markets, params);
      return { data, total, totalCapped, page: params.page, limit: params.limit };
    },

    async getEvent(idOrSlug, params, admin) {
      const event = await resolveEvent(idOrSlug, admin);
      const requested = params.marketScope ?? (admin ? 'ALL' : 'AUTO');
      const scope = requested === 'AUTO' ? (event.series_layout ? 'RECENT' : 'ALL') : requested;
      const markets = scope === 'RECENT'
        ? await findRecentMarketsOfEvent(db, event.id, admin, params.marketLimit)
        : await findMarketsOfEvents(db, [event.id], admin);
      const [view] = await eventViews([event], markets, params);
      return view!;
    },

    async getEventVolume(idOrSlug, admin) {
      const event = await resolveEvent(idOrSlug, admin);
      return unitsToNumber(await eventVolume(db, event.id));
    },

    async listMarkets(ids, admin) {
      const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
      const rows = await findMarketsByIds(db, unique, admin);
      const order = new Map(unique.map((id, i) => [id, i]));
      rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      return marketViews(rows, {});
    },

    async getMarket(idOrSlug, admin) {
      const row = await resolveMarket(idOrSlug, admin);
      const [view] = await marketViews([row], {});
      return view!;
    },

    async getMarketVolume(marketId, admin) {
      const row = await resolveMarket(marketId, admin);
      const volume = (await marketVolumes(db, [row.id], times().since24h)).get(row.id);
      return {
        marketId: row.id,
        eventId: row.event_id,
        tradeVolumeUsd: formatUnits(volume?.totalBaseUnits ?? 0n),
        tradeVolumeUsd24h: formatUnits(volume?.last24hBaseUnits ?? 0n),
      };
    },

    listCategories: async () => (await listCategories(db)).map(toCategoryView),
    listTags: async () => (await listTags(db)).map(toTagView),
  };
}
