import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp } from './api/app.ts';
import type { AppContext } from './api/context.ts';
import type { TypedApp } from './api/typed-app.ts';
import { createCatalogue, createMarketDirectory } from './catalogue/index.ts';
import { createTradingLookups } from './catalogue/trading-lookups.ts';
import { createManualClock, realClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { DomainEvents } from './events/domain-events.ts';
import { pino } from 'pino';
import { createIdentity } from './identity/index.ts';
import { createTrading, type Trading } from './orders/index.ts';
import { createMarketData } from './market-data/index.ts';
import { createOracle, type Oracle } from './oracle/index.ts';
import { createPortfolio, type Portfolio } from './portfolio/index.ts';
import { createFeed, createPrices, type Prices } from './prices/index.ts';
import { createTemplates, type Templates } from './templates/index.ts';
import { attachRealtime, BookRelay, connectRedisFanout, MarketChangeRelay, type RedisFanout } from './realtime/index.ts';
import { engineBookReads, relayBookReads } from './book-reads.ts';
import { createRewards, type Rewards } from './rewards/index.ts';
import { unitsFromNumber } from './core/money.ts';
import { createEmbeddedSettlement } from './settlement/index.ts';
import { openStore } from './store/database.ts';
import { tryEngineLock, type EngineLock } from './store/engine-lock.ts';
import { migrateToLatest } from './store/migrate.ts';
import { getOrCreateSetting } from './store/settings-repository.ts';

export interface RunningServer {
  readonly app: TypedApp;
  readonly ctx: AppContext;
  /** http://host:port of the listening server. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Opens the store, migrates it, builds every service and the app, loads the books, and listens.
 * Closing runs the other way: stop taking requests, drain the engine, close the store.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let trading: Trading | undefined;
  let engineLock: EngineLock | undefined;
  let oracle: Oracle | undefined;
  let fanout: RedisFanout | undefined;
  let relay: BookRelay | undefined;
  let marketChanges: MarketChangeRelay | undefined;
  let rewards: Rewards | undefined;
  let portfolio: Portfolio | undefined;
  let prices: Prices | undefined;
  let templates: Templates | undefined;
  try {
    await migrateToLatest(store.db);
    engineLock = await tryEngineLock(config.databaseUrl);
    const clock: Clock = config.clock === 'manual' ? createManualClock() : realClock;
    const operatorUserId = await getOrCreateSetting(store.db, 'operator_user_id', () => randomUUID());
    const cursorSecret = await getOrCreateSetting(store.db, 'cursor_secret', () => randomBytes(32).toString('hex'));
    const identity = await createIdentity({ config, clock, store });
    const settlement = createEmbeddedSettlement({ db: store.db, clock });
    const events = new DomainEvents();
    const logger = pino({ level: config.logLevel });
    const lookups = createTradingLookups(store.db);
    const markets = createMarketDirectory(store.db);
    trading = createTrading({
      config,
      clock,
      db: store.db,
      settlement,
      events,
      logger,
      markets,
      orderMarkets: lookups.orderMarkets,
      eventMarketIds: lookups.eventMarketIds,
      cursorSecret,
      signatureWorkers: config.signatureWorkers,
    });
    const engine = trading.engine;
    if (config.redisUrl) {
      // Every node on one database shares its channels; exchanges sharing one Redis stay apart.
      const clusterId = await getOrCreateSetting(store.db, 'cluster_id', () => randomUUID());
      fanout = await connectRedisFanout(config.redisUrl, logger, `pmx#${clusterId}`);
      relay = await BookRelay.connect(fanout, logger);
      marketChanges = new MarketChangeRelay(fanout, logger);
    }
    // Only the engine node holds the books; the others ask it (src/realtime/README.md "Several nodes").
    const relayedBooks = engineLock.held ? undefined : relay;
    rewards = createRewards({
      db: store.db, clock, settlement, events, logger,
      minPayoutBaseUnits: unitsFromNumber(config.rewardsMinPayoutUsdc) ?? 1_000_000n,
      quotesByMarket: () => engine.restingOrdersByMarket(),
    });
    // Publishing and patching markets reach the engine only after the catalogue committed them;
    // on a node without the engine, through the engine node.
    const refreshMarkets = async (ids: string[]) => {
      for (const id of ids) await engine.refreshMarket(id);
    };
    const announcer = engineLock.held ? undefined : marketChanges;
    const onMarketsChanged = announcer ? (ids: string[]) => announcer.announce(ids) : refreshMarkets;
    const rewardReads = rewards.reads;
    // Price-target markets resolve by an operator proposal through the oracle (built just below).
    const proposeFromPrice = (marketId: string, outcome: 'YES' | 'NO') => oracle!.service.propose({ kind: 'operator' }, marketId, outcome);
    prices = createPrices({ db: store.db, clock, logger, feed: createFeed(config, clock), propose: proposeFromPrice });
    const catalogue = createCatalogue({ db: store.db, clock, config, operatorUserId, onMarketsChanged, marketRewards: (ids) => rewardReads.marketRewards(ids), priceTargets: prices.targets });
    const liveRewards = rewards;
    templates = createTemplates({ db: store.db, clock, logger, catalogue: catalogue.admin, putRewards: (marketId, input) => liveRewards.putConfig(marketId, input) });
    const marketData = createMarketData({ db: store.db, clock, catalogue: catalogue.reads, engine, tradeActivityMinUsd: config.tradeActivityMinUsd });
    oracle = createOracle({ db: store.db, clock, settlement, logger, engine });
    portfolio = createPortfolio({ db: store.db, clock, events, engine, onProjectionError: (error) => logger.warn({ err: error }, 'position projection failed; the next read retries it') });
    const books = relayedBooks ? relayBookReads(relayedBooks) : engineBookReads(engine);
    const ctx: AppContext = { config, clock, store, logger, operatorUserId, identity, settlement, catalogue, trading, books, marketData, oracle, rewards, portfolio, prices, templates, events, ready: false };
    const app = await buildApp(ctx, { users: identity.authenticator, describeTokens: lookups.describeTokens });
    if (engineLock.held) {
      await trading.start();
      oracle.start();
      await marketChanges?.serve(refreshMarkets);
      await relay?.serve({ snapshot: (tokenId) => engine.bookSnapshot(tokenId), lastTradePrice: (tokenId) => engine.lastTradePrice(tokenId) });
      await rewards.start();
      prices.start();
      templates.start();
    } else {
      logger.warn('another node runs the matching engine on this database: this node serves reads and real-time fan-out, and answers order commands with 503');
    }
    const realtime = await attachRealtime(app.server, {
      events,
      books: relayedBooks ? { relay: relayedBooks } : { snapshot: (tokenId) => engine.bookSnapshot(tokenId) },
      handshake: { verify: (auth) => identity.authenticator.authenticateSocket(auth) },
      fanout,
      tradeActivityMinUsd: config.tradeActivityMinUsd,
      logger: app.log,
    });
    app.addHook('preClose', () => realtime.close());
    await app.listen({ port: config.port, host: config.host });
    ctx.ready = true;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    let closed = false;
    const running = trading;
    const lock = engineLock;
    const runningOracle = oracle;
    const redis = { fanout, relay, marketChanges };
    const runningRewards = rewards;
    const runningPortfolio = portfolio;
    const runningPrices = prices;
    const runningTemplates = templates;
    return {
      app,
      ctx,
      url,
      async close() {
        if (closed) return;
        closed = true;
        ctx.ready = false;
        await app.close();
        await redis.relay?.close();
        await redis.marketChanges?.close();
        await redis.fanout?.close();
        await runningTemplates.stop();
        await runningPrices.stop();
        await runningOracle.stop();
        await runningRewards.stop();
        await running.stop();
        await runningPortfolio.stop();
        await lock.release();
        await store.close();
      },
    };
  } catch (error) {
    await relay?.close();
    await marketChanges?.close();
    await fanout?.close();
    await templates?.stop();
    await prices?.stop();
    await oracle?.stop();
    await rewards?.stop();
    await trading?.stop();
    await portfolio?.stop();
    await engineLock?.release();
    await store.close();
    throw error;
  }
}
