import { badRequest } from '../contract/errors.ts';
import { unitsFromNumber } from '../core/money.ts';
import { toTradeResponse, type TradeResponse } from '../engine/shapes.ts';
import type { Db } from '../store/database.ts';
import { listTradeActivity, listTrades } from '../store/market-data-trades-repository.ts';
import { toTradeActivity, type TradeActivity } from './trade-activity.ts';

export interface TradesQuery {
  id?: string | undefined;
  market?: string | undefined;
  taker?: string | undefined;
  maker?: string | undefined;
  user?: string | undefined;
  limit: number;
  before?: number | undefined;
  after?: number | undefined;
  beforeId?: string | undefined;
}

export interface TradeActivityQuery {
  limit: number;
  before?: number | undefined;
  after?: number | undefined;
  beforeId?: string | undefined;
  eventId?: string | undefined;
  minAmount?: number | undefined;
}

const lower = (address: string | undefined) => address?.toLowerCase();

/** GET /trades and GET /trades/activity (SPEC.md 4.6, EXTENSIONS.md section 11). */
export class TradeReads {
  constructor(private readonly db: Db, private readonly floorBaseUnits: bigint) {}

  async list(q: TradesQuery): Promise<{ data: TradeResponse[]; hasMore: boolean }> {
    if (q.beforeId !== undefined && q.before === undefined) throw badRequest('beforeId requires before');
    const rows = await listTrades(this.db, {
      id: q.id, marketId: q.market, taker: lower(q.taker), maker: lower(q.maker), user: lower(q.user),
      beforeSec: q.before, afterSec: q.after, beforeId: q.beforeId, limit: q.limit,
    });
    return { data: rows.slice(0, q.limit).map(toTradeResponse), hasMore: rows.length > q.limit };
  }

  async activity(q: TradeActivityQuery): Promise<{ data: TradeActivity[]; hasMore: boolean }> {
    if (q.before !== undefined && q.after !== undefined) throw badRequest('before and after are mutually exclusive');
    if (q.beforeId !== undefined && q.before === undefined) throw badRequest('beforeId requires before');
    const rows = await listTradeActivity(this.db, {
      beforeUs: q.before === undefined ? undefined : BigInt(q.before),
      afterUs: q.after === undefined ? undefined : BigInt(q.after),
      beforeId: q.beforeId,
      eventId: q.eventId,
      minNotionalBaseUnits: this.minimum(q.minAmount),
      limit: q.limit,
    });
    return { data: rows.slice(0, q.limit).map(toTradeActivity), hasMore: rows.length > q.limit };
  }

  /** `minAmount` raises the platform floor for one request; it never lowers it. */
  private minimum(minAmount: number | undefined): bigint {
    if (minAmount === undefined) return this.floorBaseUnits;
    const requested = unitsFromNumber(minAmount);
    if (requested === undefined) throw badRequest('minAmount must be a non-negative USD amount');
    return requested > this.floorBaseUnits ? requested : this.floorBaseUnits;
  }
}
