import { badRequest, notFound } from '../contract/errors.ts';
import type { Clock } from '../clock.ts';
import { formatPrice } from '../core/money.ts';
import { findMarketsByTokenIds } from '../store/catalogue-lookups-repository.ts';
import type { Db } from '../store/database.ts';
import { firstTradeSec, pricePoints } from '../store/market-data-prices-repository.ts';
import { bucketSpan, MAX_FIDELITY, pageBuckets, type Interval } from './price-buckets.ts';

/** The most points `total` counts exactly; beyond it `total` is this cap and `totalCapped` true. */
export const PRICE_HISTORY_TOTAL_CAP = 10_000;

export interface PriceHistoryQuery {
  token: string;
  interval: Interval;
  fidelity: number;
  page: number;
  limit: number;
  total: boolean;
  strictFidelity: boolean;
  sortBy: 'timestamp' | 'price';
  order: 'ASC' | 'DESC';
}

export interface PriceHistoryResponse {
  page: number;
  limit: number;
  total: number | null;
  pageCount: number | null;
  totalCapped?: boolean;
  data: { t: number; p: string }[];
}

/** GET /price-history (SPEC.md 4.5). */
export class PriceHistoryReads {
  constructor(private readonly db: Db, private readonly clock: Clock) {}

  async history(q: PriceHistoryQuery): Promise<PriceHistoryResponse> {
    const max = MAX_FIDELITY[q.interval];
    if (q.fidelity > max && q.strictFidelity) throw badRequest(`fidelity ${q.fidelity} is above the ${q.interval} maximum of ${max}`);
    const fidelity = Math.min(q.fidelity, max);
    const [market] = await findMarketsByTokenIds(this.db, [q.token]);
    if (!market) throw notFound(`token ${q.token}`);
    const span = bucketSpan(q.interval, fidelity, Math.floor(this.clock.nowMs() / 1000), await firstTradeSec(this.db, market.id));
    const count = span?.count ?? 0;
    const offset = (q.page - 1) * q.limit;
    const data = span === undefined ? [] : await this.points(market.id, q, span, offset);
    const response: PriceHistoryResponse = { page: q.page, limit: q.limit, total: null, pageCount: null, data };
    if (q.total) {
      const total = Math.min(count, PRICE_HISTORY_TOTAL_CAP);
      Object.assign(response, { total, pageCount: Math.ceil(total / q.limit), totalCapped: count > PRICE_HISTORY_TOTAL_CAP });
    }
    return response;
  }

  private async points(marketId: string, q: PriceHistoryQuery, span: NonNullable<ReturnType<typeof bucketSpan>>, offset: number) {
    // A timestamp page reads only its own buckets; a price sort has to rank every bucket.
    const range = q.sortBy === 'timestamp'
      ? pageBuckets(span, q.order, offset, q.limit)
      : { fromSec: span.fromSec, toSec: span.fromSec + (span.count - 1) * span.stepSec };
    if (range === undefined) return [];
    const pageOffset = q.sortBy === 'timestamp' ? 0 : offset;
    const points = await pricePoints(this.db, { marketId, tokenId: q.token, ...range, stepSec: span.stepSec }, { sortBy: q.sortBy, order: q.order, offset: pageOffset, limit: q.limit });
    return points.map((point) => ({ t: point.t, p: formatPrice(point.priceMicros) }));
  }
}
