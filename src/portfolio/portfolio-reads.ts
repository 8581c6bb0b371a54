import type { HexAddress } from '../contract/common.ts';
import { notional } from '../core/positions/position.ts';
import { unitsToNumber } from '../core/money.ts';
import type { LatestPriceSource } from '../market-data/event-positions.ts';
import type { Db } from '../store/database.ts';
import { findPositionMarkets, listAccountPositions, type AccountPosition, type PositionFilter, type PositionMarket } from '../store/positions-repository.ts';
import { findUserByWallet } from '../store/users-repository.ts';
import { latestPricesMicros } from '../market-data/latest-prices.ts';
import type { PositionProjector } from './projector.ts';
import { sortPositions, toUserPosition, valued, type PositionSort, type UserPosition, type ValuedPosition } from './user-positions.ts';

/** The most positions one account's read considers; far above what a page or a profile shows. */
export const MAX_ACCOUNT_POSITIONS = 20_000;

export interface UserPositionsQuery {
  status?: 'DRAFT' | 'ACTIVE' | 'RESOLVED';
  id?: string;
  eventId?: string;
  title?: string;
  page: number;
  limit: number;
  sortBy: PositionSort;
  order: 'ASC' | 'DESC';
}

export interface UserPositionsResponse {
  first: number;
  last: number;
  limit: number;
  total: number;
  data: UserPosition[];
}

/** SPEC.md 4.3 positions and value, read from the projected positions after catching up. */
export class PortfolioReads {
  constructor(private readonly db: Db, private readonly projector: PositionProjector, private readonly prices: LatestPriceSource) {}

  /** The account's positions matching the filter, each valued at its token's latest price. */
  async valuedPositions(filter: PositionFilter, limit = MAX_ACCOUNT_POSITIONS): Promise<ValuedPosition[]> {
    await this.projector.catchUp();
    const rows = await listAccountPositions(this.db, filter, limit);
    const prices = await latestPricesMicros(this.db, this.prices, rows.map(priced));
    return rows.map((row) => valued(row, prices.get(row.tokenId)!));
  }

  async userPositions(account: string, query: UserPositionsQuery): Promise<UserPositionsResponse> {
    const filter: PositionFilter = { account: account.toLowerCase(), state: 'held', status: query.status, eventId: query.eventId, title: query.title };
    if (query.id) filter.marketIds = [query.id];
    const all = sortPositions(await this.valuedPositions(filter), query.sortBy, query.order);
    const offset = (query.page - 1) * query.limit;
    const page = all.slice(offset, offset + query.limit);
    return {
      first: page.length > 0 ? offset + 1 : 0,
      last: page.length > 0 ? offset + page.length : 0,
      limit: query.limit,
      total: all.length,
      data: await this.withMarkets(page, toUserPosition),
    };
  }

  /** Shapes positions with their markets' descriptive fields, read for these positions only. */
  async withMarkets<T>(positions: ValuedPosition[], shape: (p: ValuedPosition, market: PositionMarket) => T): Promise<T[]> {
    const markets = await findPositionMarkets(this.db, positions.map((p) => p.row.marketId));
    return positions.map((p) => shape(p, markets.get(p.row.marketId)!));
  }

  /**
   * GET /markets/value: the current value of what the caller, or `user` (sign-in address or proxy
   * wallet), holds. A `user` query is echoed as sent: answering with the owner's sign-in address
   * would tell anyone who knows a proxy wallet which EOA signs for it.
   */
  async value(caller: { address: string; proxyWallet: string }, query: { user?: HexAddress; markets?: string[] }): Promise<{ user: HexAddress; value: number }> {
    const owner = query.user ? await findUserByWallet(this.db, query.user) : undefined;
    if (query.user && !owner) return { user: query.user, value: 0 };
    const { address, proxyWallet } = owner ?? caller;
    // A sign-in address is checked as an address when the user signs in.
    const user = query.user ?? (address as HexAddress);
    const filter: PositionFilter = { account: proxyWallet.toLowerCase(), state: 'held' };
    if (query.markets) filter.marketIds = query.markets;
    const positions = await this.valuedPositions(filter);
    return { user, value: unitsToNumber(positions.reduce((sum, p) => sum + notional(p.latestMicros, p.row.amount), 0n)) };
  }
}

export function priced(row: AccountPosition) {
  return { marketId: row.marketId, tokenId: row.tokenId, outcomeIndex: row.outcomeIndex, resolvedTo: row.resolvedTo };
}
