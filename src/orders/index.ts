import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { createMarketOrderHasher } from '../core/orders/eip712-order.ts';
import { MatchingEngine, type EngineOptions } from '../engine/engine.ts';
import { databaseEngineStore, type AppendFence } from '../engine/journal/journal-store.ts';
import type { MarketDirectory } from '../engine/market-directory.ts';
import { signatureBackend } from '../engine/signatures/recover-signer.ts';
import { createSignatureVerifier } from '../engine/signatures/signature-verifier.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import { OrderCancels } from './order-cancels.ts';
import { OrderCursorCodec } from './order-cursor.ts';
import { OrderEntry } from './order-entry.ts';
import { OrderQueries, type OrderMarketSource } from './order-queries.ts';

/** Everything the order routes use: the engine and the services in front of it. */
export interface Trading {
  readonly engine: MatchingEngine;
  readonly orderEntry: OrderEntry;
  readonly orderCancels: OrderCancels;
  readonly orderQueries: OrderQueries;
  readonly markets: MarketDirectory;
  /** The ids of an event's markets, or undefined for an unknown event. */
  eventMarketIds(eventId: string): Promise<string[] | undefined>;
  stop(): Promise<void>;
}

export interface TradingDeps {
  config: Config;
  clock: Clock;
  db: Db;
  events: DomainEvents;
  logger: FastifyBaseLogger;
  markets: MarketDirectory;
  orderMarkets: OrderMarketSource;
  eventMarketIds(eventId: string): Promise<string[] | undefined>;
  cursorSecret: string;
  /** Signature worker threads; 0 verifies on the main thread (tests). Default: the CPU count. */
  signatureWorkers?: number;
  /** The engine lease (src/cluster/leadership.ts), which every journal append checks. */
  fence?: AppendFence;
  /** Notifications of the journal's appends and projections (several nodes on PostgreSQL). */
  listen?: EngineOptions['listen'];
  /** Trades settle on a real chain (CHAIN≠none) instead of in simulated rounds. */
  chainSettlement?: EngineOptions['chainSettlement'];
  chainIndex?: EngineOptions['chainIndex'];
  /** Which records the engine's node announced (several nodes sharing Redis). */
  announced?: EngineOptions['announced'];
  presentNodes?: EngineOptions['presentNodes'];
}

export function createTrading(deps: TradingDeps): Trading {
  const store = databaseEngineStore(deps.db, { notify: Boolean(deps.config.databaseUrl), ...(deps.fence ? { fence: deps.fence } : {}) });
  const engine = new MatchingEngine({
    db: deps.db, store, clock: deps.clock, events: deps.events, markets: deps.markets, logger: deps.logger,
    settlementBlockMs: deps.config.settlementBlockMs, bookFrameMs: deps.config.bookFrameMs, ...(deps.listen ? { listen: deps.listen } : {}),
    ...(deps.chainSettlement ? { chainSettlement: deps.chainSettlement } : {}),
    ...(deps.chainIndex ? { chainIndex: deps.chainIndex } : {}),
    ...(deps.announced ? { announced: deps.announced } : {}),
    ...(deps.presentNodes ? { presentNodes: deps.presentNodes } : {}),
  });
  const verifier = createSignatureVerifier(deps.signatureWorkers === undefined ? {} : { workers: deps.signatureWorkers });
  deps.logger.info(`order signatures: ${signatureBackend()}, ${verifier.workers === 0 ? 'on the main thread' : `${verifier.workers} worker thread(s)`}`);
  const hashOrder = createMarketOrderHasher(deps.config);
  return {
    engine,
    orderEntry: new OrderEntry({ engine, verifier, hashOrder, events: deps.events, nowSec: () => Math.floor(deps.clock.nowMs() / 1000) }),
    orderCancels: new OrderCancels(engine),
    orderQueries: new OrderQueries(deps.db, deps.orderMarkets, new OrderCursorCodec(deps.cursorSecret)),
    markets: deps.markets,
    eventMarketIds: deps.eventMarketIds,
    async stop() {
      await engine.stop();
      await verifier.close();
    },
  };
}
