import type { ActiveProfilePosition, ClosedProfilePosition, PnlHistory, PnlRange, PublicProfileActivity, PublicProfileSummary } from '../spec-types.ts';
import type { ClientContext } from './context.ts';

/** Public profiles by display name (SPEC.md 4.8), following SPEC.md until the routes land (no tests yet). */
export function profilesSection({ transport }: ClientContext) {
  const profile = <T>(name: string, path: string, query?: Record<string, string>) => transport.call<T>('GET', `/profiles/by-name/${encodeURIComponent(name)}${path}`, query ? { query } : {});
  return {
    summary: (name: string) => profile<PublicProfileSummary>(name, '/summary'),
    pnlHistory: (name: string, range: PnlRange) => profile<PnlHistory>(name, '/pnl-history', { range }),
    activePositions: (name: string) => profile<ActiveProfilePosition[]>(name, '/positions', { status: 'active' }),
    closedPositions: (name: string) => profile<ClosedProfilePosition[]>(name, '/positions', { status: 'closed' }),
    activity: (name: string) => profile<PublicProfileActivity[]>(name, '/activity'),
  };
}
