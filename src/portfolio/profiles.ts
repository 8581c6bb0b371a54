import { notFound } from '../contract/errors.ts';
import type { Clock } from '../clock.ts';
import { formatUnits, priceToCents, unitsToNumber } from '../core/money.ts';
import { notional } from '../core/positions/position.ts';
import { averagePriceMicros, percentOf, totalPnl } from '../core/positions/valuation.ts';
import { pnlPoints, rangeWindow, type PnlRange } from '../core/positions/pnl-history.ts';
import type { Db } from '../store/database.ts';
import { listActivity } from '../store/market-data-activity-repository.ts';
import { countConfirmedBuyOrders, findEventIcons, listPnlSeries, sumPnlBefore, type PositionMarket } from '../store/positions-repository.ts';
import { userPaidRewards } from '../store/rewards-repository.ts';
import { findUserByDisplayName, type User } from '../store/users-repository.ts';
import type { PortfolioReads } from './portfolio-reads.ts';
import type { ValuedPosition } from './user-positions.ts';

/** SPEC.md 4.8 and 8: at most this many positions, and the newest this many trade rows. */
export const PROFILE_POSITIONS_MAX = 1_000;
export const PROFILE_ACTIVITY_ROWS = 100;

const side = (outcomeIndex: number) => (outcomeIndex === 0 ? 'SIDE_A' : 'SIDE_B');

/** The market and event fields every profile position shares. */
function positionBase({ row }: ValuedPosition, market: PositionMarket) {
  return {
    id: row.tokenId,
    market: market.marketName,
    eventName: market.eventName,
    isMultiMarket: !market.eventSingle,
    isSeriesLayout: market.seriesLayout,
    image: market.marketIcon,
    eventImage: market.eventIcon,
    slug: market.marketSlug,
    side: side(row.outcomeIndex),
  };
}

/** Public profiles (SPEC.md 4.8): the same projected positions as the portfolio, by display name. */
export class ProfileReads {
  constructor(private readonly db: Db, private readonly clock: Clock, private readonly portfolio: PortfolioReads) {}

  /** Unknown names, anonymous users and users without a wallet are 404, whatever the route. */
  private async profileOwner(name: string): Promise<User> {
    const user = await findUserByDisplayName(this.db, name);
    if (!user || user.anonymous || !user.proxyWallet) throw notFound('profile');
    return user;
  }

  private account = (user: User) => user.proxyWallet.toLowerCase();

  async summary(name: string) {
    const user = await this.profileOwner(name);
    const positions = await this.portfolio.valuedPositions({ account: this.account(user) });
    let value = 0n, pnl = 0n, biggestWin = 0n;
    for (const p of positions) {
      value += p.value.current;
      pnl += totalPnl(p.row, p.latestMicros);
      if (p.row.amount === 0n && p.row.realizedPnl > biggestWin) biggestWin = p.row.realizedPnl;
    }
    const rewards = await userPaidRewards(this.db, user.id);
    return {
      positionsValue: formatUnits(value),
      biggestWin: formatUnits(biggestWin),
      predictions: await countConfirmedBuyOrders(this.db, this.account(user)),
      rewardsUsd: formatUnits(rewards.total),
      rewardsCount: rewards.count,
      allTimePnl: formatUnits(pnl),
    };
  }

  async pnlHistory(name: string, range: PnlRange) {
    const user = await this.profileOwner(name);
    const nowMs = this.clock.nowMs();
    const window = rangeWindow(range, nowMs);
    const since = window.startMs === null ? null : new Date(window.startMs);
    const positions = await this.portfolio.valuedPositions({ account: this.account(user) });
    const live = positions.reduce((sum, p) => sum + totalPnl(p.row, p.latestMicros), 0n);
    const series = (await listPnlSeries(this.db, this.account(user), since)).map((s) => ({ hourMs: s.hour.getTime(), realized: s.realizedPnl }));
    const before = since === null ? 0n : await sumPnlBefore(this.db, this.account(user), since);
    return {
      range,
      points: pnlPoints(series, before, window, nowMs, live).map((p) => ({ time: p.time, value: unitsToNumber(p.value) })),
      value: formatUnits(live),
    };
  }

  async positions(name: string, status: 'active' | 'closed') {
    const user = await this.profileOwner(name);
    const all = await this.portfolio.valuedPositions({ account: this.account(user), state: status === 'active' ? 'held' : 'closed' });
    const top = all.sort((a, b) => (b.latestMicros > a.latestMicros ? 1 : b.latestMicros < a.latestMicros ? -1 : 0)).slice(0, PROFILE_POSITIONS_MAX);
    if (status === 'active') {
      return this.portfolio.withMarkets(top, (p, market) => ({
        ...positionBase(p, market),
        avg: priceToCents(p.value.acquisitionPriceMicros),
        bet: formatUnits(p.value.initial),
        shares: unitsToNumber(p.row.amount),
        now: priceToCents(p.latestMicros),
        value: formatUnits(p.value.current),
        changePct: percentOf(p.value.return, p.value.initial),
      }));
    }
    return this.portfolio.withMarkets(top, (p, market) => ({
      ...positionBase(p, market),
      avg: priceToCents(averagePriceMicros(p.row.acquiredCost, p.row.acquiredAmount)),
      bet: formatUnits(p.row.acquiredCost),
      exit: priceToCents(averagePriceMicros(p.row.disposedProceeds, p.row.disposedAmount)),
      pnl: formatUnits(p.row.realizedPnl),
      pnlPct: percentOf(p.row.realizedPnl, p.row.acquiredCost),
    }));
  }

  /** The newest trade rows (BUY and SELL, each party its own), as the market activity shows them. */
  async activity(name: string) {
    const user = await this.profileOwner(name);
    const rows = await listActivity(this.db, { account: this.account(user), types: ['BUY', 'SELL'] }, { sort: 'timestamp', order: 'DESC', offset: 0, limit: PROFILE_ACTIVITY_ROWS });
    const icons = await findEventIcons(this.db, [...new Set(rows.map((r) => r.event_id))]);
    return rows.slice(0, PROFILE_ACTIVITY_ROWS).map((r) => {
      const priceMicros = BigInt(r.price_micros);
      return {
        id: r.row_key,
        action: r.type === 'BUY' ? 'bought' : 'sold',
        side: side(r.token_id === r.token_id1 ? 0 : 1),
        market: r.market_name,
        eventName: r.event_name,
        isMultiMarket: !r.event_single,
        image: r.market_icon,
        eventImage: icons.get(r.event_id) ?? '',
        slug: r.market_slug,
        amount: formatUnits(notional(priceMicros, BigInt(r.amount_base_units))),
        price: priceToCents(priceMicros),
        timestamp: Number(BigInt(r.at_us) / 1_000n),
      };
    });
  }
}
