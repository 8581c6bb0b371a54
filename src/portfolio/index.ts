import type { Clock } from '../clock.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { engineLatestPrices } from '../market-data/event-positions.ts';
import type { Db } from '../store/database.ts';
import { PortfolioReads } from './portfolio-reads.ts';
import { ProfileReads } from './profiles.ts';
import { PositionProjector } from './projector.ts';

/** Positions, portfolio value and public profiles (SPEC.md 4.3 and 4.8), on `ctx.portfolio`. */
export interface Portfolio {
  readonly projector: PositionProjector;
  readonly reads: PortfolioReads;
  readonly profiles: ProfileReads;
  /** Stops reacting to domain events and waits for a catch-up in flight. */
  stop(): Promise<void>;
}

export interface PortfolioDeps {
  db: Db;
  clock: Clock;
  events: DomainEvents;
  /** The matching engine's last trade prices and books (latest prices). */
  engine: Parameters<typeof engineLatestPrices>[0];
  /** Where a failed background catch-up is reported (the next read retries it). */
  onProjectionError?: (error: unknown) => void;
}

export function createPortfolio(deps: PortfolioDeps): Portfolio {
  const projector = new PositionProjector(deps.db, deps.onProjectionError);
  const unsubscribe = projector.listen(deps.events);
  const reads = new PortfolioReads(deps.db, projector, engineLatestPrices(deps.engine));
  return {
    projector,
    reads,
    profiles: new ProfileReads(deps.db, deps.clock, reads),
    async stop() {
      unsubscribe();
      await projector.idle();
    },
  };
}
