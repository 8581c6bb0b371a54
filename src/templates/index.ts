import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../contract/errors.ts';
import { ianaTimezone, type CatalogueAdmin } from '../catalogue/admin.ts';
import type { TemplatePeriod } from '../contract/formats.ts';
import { parseRewardConfig, RewardConfigError } from '../rewards/config.ts';
import { findEventRow } from '../store/catalogue-events-repository.ts';
import { findCategoriesOfEvents, findTagsOfEvents } from '../store/catalogue-taxonomy-repository.ts';
import type { TemplateRewards } from '../store/schema.ts';
import { findTemplate, insertTemplate, listTemplates, templateSlugTaken, updateTemplate, type TemplateRow } from '../store/templates-repository.ts';
import { isUniqueViolation } from '../store/unique-violation.ts';
import { publishDuePeriods, type PublisherDeps } from './publisher.ts';
import { toTemplateView, type TemplateView } from './views.ts';

export type { TemplateView } from './views.ts';

/** POST /admin/templates, after schema validation (formats of pair, period, dates; ranges). */
export interface TemplateInput {
  name: string;
  slug: string;
  description: string;
  pair: string;
  period: TemplatePeriod;
  firstStart: string;
  lead?: number | undefined;
  displayTimezone?: string | undefined;
  categories?: string[] | undefined;
  tags?: string[] | undefined;
  tickSize?: '0.1' | '0.01' | '0.001' | '0.0001' | undefined;
  orderFeeRateBps?: number | undefined;
  passiveOrderFeeRateBps?: number | undefined;
  reward?: string | undefined;
  proposalBond?: string | undefined;
  liveness?: number | undefined;
  rewards?: TemplateRewards | null | undefined;
}

/** PATCH /admin/templates/{id}: `enabled` and what only shapes markets not yet published. */
export type TemplatePatch = Partial<Pick<TemplateInput, 'description' | 'lead' | 'displayTimezone' | 'tickSize' | 'orderFeeRateBps' | 'passiveOrderFeeRateBps' | 'rewards'>> & { enabled?: boolean | undefined };

export const DEFAULT_LEAD = 1;

export interface Templates {
  create(input: TemplateInput): Promise<TemplateView>;
  list(): Promise<TemplateView[]>;
  patch(id: string, patch: TemplatePatch): Promise<TemplateView>;
  /** Publishes due periods of every enabled template; returns how many markets it created. */
  tick(): Promise<number>;
}

export interface TemplatesDeps extends PublisherDeps {
  catalogue: Pick<CatalogueAdmin, 'addMarket' | 'publishEvent' | 'createEvent'>;
}

export function createTemplates(deps: TemplatesDeps): Templates {
  const { db, clock } = deps;

  async function view(row: TemplateRow): Promise<TemplateView> {
    const [event, categories, tags] = await Promise.all([findEventRow(db, row.event_id), findCategoriesOfEvents(db, [row.event_id]), findTagsOfEvents(db, [row.event_id])]);
    return toTemplateView(row, event!, { categories: categories.map((c) => c.id), tags: tags.map((t) => t.id) });
  }

  /** Refuses rewards a market could not take: the same rules as PUT /admin/markets/{id}/rewards. */
  function checkRewards(rewards: TemplateRewards | null | undefined): void {
    if (!rewards) return;
    try {
      parseRewardConfig(rewards, clock.nowMs());
    } catch (error) {
      if (error instanceof RewardConfigError) throw badRequest(`rewards: ${error.message}`);
      throw error;
    }
  }

  const tick = () => publishDuePeriods(deps);

  return {
    async create(input) {
      const displayTimezone = ianaTimezone(input.displayTimezone ?? 'UTC')!;
      checkRewards(input.rewards);
      if (await templateSlugTaken(db, input.slug)) throw conflict(`template slug "${input.slug}" is taken`);
      const id = randomUUID();
      // The series event stays DRAFT (unseen) until the template row exists, so a clash leaves nothing public.
      const eventId = await deps.catalogue.createEvent({
        name: input.name, slug: input.slug, description: input.description, startDate: input.firstStart, seriesLayout: true,
        categories: input.categories, tags: input.tags, reward: input.reward, proposalBond: input.proposalBond, liveness: input.liveness,
        orderFeeRateBps: input.orderFeeRateBps, passiveOrderFeeRateBps: input.passiveOrderFeeRateBps, markets: [], templateId: id,
      });
      const now = new Date(clock.nowMs());
      let row: TemplateRow;
      try {
        row = await insertTemplate(db, {
          id, slug: input.slug, name: input.name, description: input.description, pair: input.pair, period: input.period,
          first_start: new Date(input.firstStart), lead: input.lead ?? DEFAULT_LEAD, display_timezone: displayTimezone,
          tick_size: input.tickSize ?? '0.01', order_fee_rate_bps: input.orderFeeRateBps ?? null,
          passive_order_fee_rate_bps: input.passiveOrderFeeRateBps ?? null, rewards: input.rewards ? JSON.stringify(input.rewards) : null,
          event_id: eventId, enabled: true, created_at: now, updated_at: now,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`template slug "${input.slug}" is taken`);
        throw error;
      }
      await deps.catalogue.publishEvent(eventId);
      return view(row);
    },

    async list() {
      return Promise.all((await listTemplates(db)).map(view));
    },

    async patch(id, patch) {
      const existing = await findTemplate(db, id);
      if (!existing) throw notFound('template');
      checkRewards(patch.rewards);
      const row = await updateTemplate(db, id, {
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.lead !== undefined ? { lead: patch.lead } : {}),
        ...(patch.displayTimezone !== undefined ? { display_timezone: ianaTimezone(patch.displayTimezone)! } : {}),
        ...(patch.tickSize !== undefined ? { tick_size: patch.tickSize } : {}),
        ...(patch.orderFeeRateBps !== undefined ? { order_fee_rate_bps: patch.orderFeeRateBps } : {}),
        ...(patch.passiveOrderFeeRateBps !== undefined ? { passive_order_fee_rate_bps: patch.passiveOrderFeeRateBps } : {}),
        ...(patch.rewards !== undefined ? { rewards: patch.rewards === null ? null : JSON.stringify(patch.rewards) } : {}),
        updated_at: new Date(clock.nowMs()),
      });
      return view(row!);
    },

    tick,
  };
}
