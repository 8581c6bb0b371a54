import type { Db } from '../store/database.ts';
import { countTradedMarkets, type ActivityRow, type ActivityType } from '../store/market-data-activity-repository.ts';
import { readActivityPage, toActivity, type Activity, type ActivityListQuery, type ActivityOffsetPage } from './activity.ts';

/** SPEC.md section 2, the user-activity variant of an Activity row. */
export interface UserActivity extends Activity {
  /** Markets carry one name, so this is null and clients show `name` (SPEC.md's fallback). */
  displayName: string | null;
  isMultiMarket: boolean;
  eventId?: string | null;
  eventName?: string | null;
}

export function toUserActivity(row: ActivityRow): UserActivity {
  return { ...toActivity(row), displayName: null, isMultiMarket: !row.event_single, eventId: row.event_id, eventName: row.event_name };
}

export interface UserActivityFilter {
  term?: string | undefined;
  name?: string | undefined;
  market?: string | undefined;
  types?: readonly ActivityType[] | undefined;
  fromTimestamp?: number | undefined;
  toTimestamp?: number | undefined;
}

/** GET /markets/user-activity and /markets/traded-count (SPEC.md 4.3): the caller's own rows only. */
export class UserActivityReads {
  constructor(private readonly db: Db) {}

  /** Offset pages over every row of the user (no 1,000-row window: it is one user's history). */
  async list(proxyWallet: string, f: UserActivityFilter, q: Omit<ActivityListQuery, 'cursor' | 'offsetWindow'>): Promise<ActivityOffsetPage<UserActivity>> {
    const filter = {
      account: proxyWallet.toLowerCase(), term: f.term, marketName: f.name, marketId: f.market?.toLowerCase(), types: f.types,
      fromSeconds: f.fromTimestamp, toSeconds: f.toTimestamp,
    };
    return readActivityPage(this.db, filter, q, toUserActivity);
  }

  tradedCount(proxyWallet: string): Promise<number> {
    return countTradedMarkets(this.db, proxyWallet.toLowerCase());
  }
}
