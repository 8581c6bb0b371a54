import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../contract/errors.ts';
import type { CatalogueAdmin } from '../catalogue/index.ts';
import type { Clock } from '../clock.ts';
import { duePeriods, PERIOD_MS, periodMarketName } from '../core/prices.ts';
import { utcDate } from '../core/rewards/index.ts';
import type { TickSize } from '../core/orders/order-price.ts';
import type { Db } from '../store/database.ts';
import { findPublishedPeriods, hasDraftTemplateMarkets, insertTemplateMarket, listEnabledTemplates, type TemplateRow } from '../store/templates-repository.ts';
import type { TemplateRewards } from '../store/schema.ts';

/** Templates looked at per tick (the rest wait for the next one). */
const TEMPLATES_PER_TICK = 100;
const DAY_MS = 86_400_000;

export interface PublisherDeps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  catalogue: Pick<CatalogueAdmin, 'addMarket' | 'publishEvent'>;
  /** PUT /admin/markets/{id}/rewards for one UTC date (src/rewards). */
  putRewards(marketId: string, input: TemplateRewards & { date: string; startAt: string; endAt: string }): Promise<unknown>;
}

/**
 * One pass of every enabled template: the periods due now (the current one and `lead` ahead)
 * that have no market get one, and the series event is published so the engine loads them.
 * Each market is created in one transaction with its (template, period) row, whose primary key
 * refuses a second market for the period: two nodes, or a restart mid-tick, cannot publish a
 * period twice. Periods that ended before the template could publish them are skipped.
 */
export async function publishDuePeriods(deps: PublisherDeps): Promise<number> {
  const nowMs = deps.clock.nowMs();
  let created = 0;
  for (const template of await listEnabledTemplates(deps.db, TEMPLATES_PER_TICK)) {
    try {
      created += await publishTemplate(deps, template, nowMs);
    } catch (error) {
      // One template failing (its event, the engine's reload) must not hold up the others.
      deps.logger.error({ err: error, templateId: template.id }, 'template publishing failed; retried next tick');
    }
  }
  return created;
}

/** One template: its due periods that have no market get one; returns how many it created. */
async function publishTemplate(deps: PublisherDeps, template: TemplateRow, nowMs: number): Promise<number> {
  const periodMs = PERIOD_MS[template.period];
  const starts = duePeriods(template.first_start.getTime(), periodMs, template.lead, nowMs).map((k) => template.first_start.getTime() + k * periodMs);
  const published = await findPublishedPeriods(deps.db, template.id, starts.map((ms) => new Date(ms)));
  const fresh: { marketId: string; startMs: number; endMs: number }[] = [];
  for (const startMs of starts) {
    if (published.has(startMs)) continue;
    const marketId = await createPeriodMarket(deps, template, startMs, startMs + periodMs);
    if (marketId) fresh.push({ marketId, startMs, endMs: startMs + periodMs });
  }
  if (fresh.length > 0 || (await hasDraftTemplateMarkets(deps.db, template.id))) await deps.catalogue.publishEvent(template.event_id);
  for (const market of fresh) await attachRewards(deps, template, market);
  return fresh.length;
}

/** The period's market, or undefined when another node (or an earlier tick) made it first. */
async function createPeriodMarket(deps: PublisherDeps, template: TemplateRow, startMs: number, endMs: number): Promise<string | undefined> {
  const periodStart = new Date(startMs);
  try {
    return await deps.catalogue.addMarket(template.event_id, {
      name: periodMarketName(template.pair, startMs, endMs, template.display_timezone, endMs - startMs),
      description: template.description,
      outcome1: 'Up',
      outcome2: 'Down',
      startDate: periodStart.toISOString(),
      endDate: new Date(endMs).toISOString(),
      tickSize: template.tick_size as TickSize,
      orderFeeRateBps: template.order_fee_rate_bps ?? undefined,
      passiveOrderFeeRateBps: template.passive_order_fee_rate_bps ?? undefined,
      displayTimezone: template.display_timezone,
      priceTargetConfig: { targetType: 'CLOSE_PRICE', pair: template.pair, source: 'oracle' },
    }, (trx, marketId) => insertTemplateMarket(trx, { templateId: template.id, periodStart, marketId }));
  } catch (error) {
    // The unique (template, period) row, or the market slug, was taken by a concurrent tick.
    if (error instanceof AppError && error.code === 'CONFLICT') return undefined;
    throw error;
  }
}

/**
 * The template's rewards on a new market: one configuration per UTC day the period touches, its
 * window the part of the period inside that day. A refusal is logged; publishing goes on.
 */
async function attachRewards(deps: PublisherDeps, template: TemplateRow, market: { marketId: string; startMs: number; endMs: number }): Promise<void> {
  if (!template.rewards) return;
  for (let day = Math.floor(market.startMs / DAY_MS) * DAY_MS; day < market.endMs; day += DAY_MS) {
    const window = { startAt: new Date(Math.max(market.startMs, day)).toISOString(), endAt: new Date(Math.min(market.endMs, day + DAY_MS)).toISOString() };
    try {
      await deps.putRewards(market.marketId, { ...template.rewards, date: utcDate(day), ...window });
    } catch (error) {
      deps.logger.warn({ err: error, marketId: market.marketId, templateId: template.id }, 'template rewards not attached');
    }
  }
}
