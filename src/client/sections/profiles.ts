import type { Query } from '../transport.ts';
import type { ActiveProfilePosition, ClosedProfilePosition, PnlHistory, PnlRange, ProfileActivity, ProfileSummary } from '../types.ts';
import type { ClientContext } from './context.ts';

/** Public profiles by display name, any letter case (SPEC.md 4.8); 404 for an unknown or anonymous name. */
export function profilesSection({ transport }: ClientContext) {
  const profile = <T>(name: string, path: string, query?: Query) => transport.call<T>('GET', `/profiles/by-name/${encodeURIComponent(name)}${path}`, query ? { query } : {});
  return {
    summary: (name: string) => profile<ProfileSummary>(name, '/summary'),
    pnlHistory: (name: string, range: PnlRange) => profile<PnlHistory>(name, '/pnl-history', { range }),
    /** By latest price descending, at most 1,000. */
    activePositions: (name: string) => profile<ActiveProfilePosition[]>(name, '/positions', { status: 'active' }),
    closedPositions: (name: string) => profile<ClosedProfilePosition[]>(name, '/positions', { status: 'closed' }),
    /** The newest 100 trade rows. */
    activity: (name: string) => profile<ProfileActivity[]>(name, '/activity'),
  };
}
