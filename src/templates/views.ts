import { formatUnits } from '../core/money.ts';
import type { EventRow } from '../store/catalogue-events-repository.ts';
import type { TemplateRow } from '../store/templates-repository.ts';
import type { TemplateRewards } from '../store/schema.ts';

/** Template (EXTENSIONS.md section 13): the input's fields, plus its series event and state. */
export interface TemplateView {
  id: string;
  name: string;
  slug: string;
  description: string;
  pair: string;
  period: TemplateRow['period'];
  firstStart: string;
  lead: number;
  displayTimezone: string;
  categories: string[];
  tags: string[];
  tickSize: string;
  orderFeeRateBps: number | null;
  passiveOrderFeeRateBps: number | null;
  reward: string;
  proposalBond: string;
  liveness: number;
  rewards: TemplateRewards | null;
  eventId: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The event keeps what is the event's: taxonomy, reward, bond and liveness. */
export function toTemplateView(row: TemplateRow, event: EventRow, taxonomy: { categories: string[]; tags: string[] }): TemplateView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    pair: row.pair,
    period: row.period,
    firstStart: row.first_start.toISOString(),
    lead: row.lead,
    displayTimezone: row.display_timezone,
    categories: taxonomy.categories,
    tags: taxonomy.tags,
    tickSize: row.tick_size,
    orderFeeRateBps: row.order_fee_rate_bps,
    passiveOrderFeeRateBps: row.passive_order_fee_rate_bps,
    reward: formatUnits(event.reward_base_units),
    proposalBond: formatUnits(event.proposal_bond_base_units),
    liveness: event.liveness_seconds,
    rewards: row.rewards,
    eventId: row.event_id,
    enabled: row.enabled,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
