import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { buildApp, handledRequestCount } from './api/app.ts';
import { metricsRegistryOf } from './api/ops/metrics.ts';
import { registerSocketMetrics } from './api/ops/exchange-metrics.ts';
import type { AppContext } from './api/context.ts';
import { PaymentCompletion } from './api/account/payment-completion.ts';
import type { TypedApp } from './api/typed-app.ts';
import { createCatalogue, createMarketDirectory } from './catalogue/index.ts';
import { createTradingLookups } from './catalogue/trading-lookups.ts';
import { createManualClock, realClock, type Clock } from './clock.ts';
import { clientAddressOf, ConfigError, proxyTrust, type Config } from './config.ts';
import { DomainEvents } from './events/domain-events.ts';
import { pino } from 'pino';
import { logRedaction } from './log-redaction.ts';
import { logDestination } from './log-lines.ts';
import { createIdentity } from './identity/index.ts';
import { createTrading, type Trading } from './orders/index.ts';
import { createMarketData } from './market-data/index.ts';
import { createOracle, type Oracle } from './oracle/index.ts';
import { createPortfolio, type Portfolio } from './portfolio/index.ts';
import { createFeed, createPrices, type Prices } from './prices/index.ts';
import { createTemplates, type Templates } from './templates/index.ts';
import { AnnouncedRelay, attachRealtime, BookRelay, MarketChangeRelay, SessionRelay, type RedisFanout, type SessionChange } from './realtime/index.ts';
import { engineNodeBookReads } from './book-reads.ts';
import { declareBackgroundJobs } from './background-jobs.ts';
import { startBackgroundJobs, type RunningJobs } from './jobs/background-job.ts';
import { startIntervalJob } from './jobs/interval-job.ts';
import { anotherNodeRuns, LeaseLeadership, SoloLeadership, type LeaderDuties, type Leadership } from './cluster/leadership.ts';
import { DEPARTURE_LOOK_MS, nodeDepartures } from './cluster/node-departures.ts';
import { recordServerUrl } from './data-dir-lock.ts';
import { relayRevocations } from './revocation-relay.ts';
import { createRewards, type Rewards } from './rewards/index.ts';
import { BASE_UNITS_PER_UNIT, unitsFromNumber } from './core/money.ts';
import { REWARD_TREASURY } from './settlement/accounts.ts';
import { COLLATERAL } from './settlement/types.ts';
import { paymentIntentsIn } from './store/chain-payment-intents-repository.ts';
import type { Db } from './store/database.ts';
import { createEmbeddedAutovacuum } from './store/embedded-autovacuum.ts';
import { presentNodesAmong } from './store/engine-leadership-repository.ts';
import { openAndMigrate } from './store/open-and-migrate.ts';
import { getOrCreateSetting } from './store/settings-repository.ts';
import { chainBesideStore } from './chain-beside-store.ts';
import { databaseUnreachable } from './database-unreachable.ts';
import { withChainOfStore } from './chain-choice.ts';
import { openSharedState, type SharedState } from './shared-state/index.ts';
import { listenToJournal } from './store/journal-listener.ts';
import { holdNodePresence, type NodePresence } from './store/node-presence.ts';
import { buildOutput } from './build-output.ts';
import { chainIndexSetup } from './chain/chain-index-setup.ts';
import { chainMarkets, chainSettlementSetup, operatorPayers, chainTemplateFiles, deployedProxyWallets, describeChain, withDeployedContracts, type RunningChain } from './chain/index.ts';
import { deriveChainMarketIds } from './settlement/market-ids.ts';
import { createConditionalTokens } from './conditional-tokens/index.ts';
import { deriveProxyWallet } from './core/proxy-wallet.ts';

/** How long a stopping server waits for the requests it is handling before it cuts them. */
export const DRAIN_MS = 5_000;

/**
 * Keeps the process up until released. The timers of a running server's parts never keep a
 * process alive (a CLI command that ends without closing does not hang), so a stop step that waits
 * on one of them (a retry's pause, a frame of the book publisher) would otherwise see the process
 * exit under it, the store not closed: a test's close once ended so, its promise pending.
 */
function holdProcess(): { release(): void } {
  const hold = setInterval(() => {}, 60_000);
  return { release: () => clearInterval(hold) };
}

/** Resolves once no request is being handled, or `limitMs` passed. */
async function drainRequests(app: TypedApp, limitMs: number): Promise<void> {
  const until = performance.now() + limitMs;
  while (handledRequestCount(app) > 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

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
export interface StartOptions {
  /**
   * A demo run: no line per request (the bots' requests would bury the banner and its admin
   * token), and no warning about generated keys (the demo uses them by design).
   */
  demo?: boolean;
}

export async function startServer(configured: Config, options: StartOptions = {}): Promise<RunningServer> {
  // This process's identity in the cluster: random, so a restart on the same port, or a clone with
  // the same host name, is another node (issue 38). Every log line carries it; /readyz shows it.
  const nodeId = randomUUID();
  const redact = logRedaction(configured);
  const logger = pino({ level: configured.logLevel, ...(redact ? { hooks: { streamWrite: redact } } : {}) }, logDestination()).child({ node: nodeId });
  const chainToTake = chainBesideStore(configured, { template: chainTemplateFiles(buildOutput), logger });
  const store = await openAndMigrate(
    { databaseUrl: configured.databaseUrl, dataDir: configured.dataDir, idleInTransactionTimeoutMs: configured.failoverTimeoutMs, timeoutMs: configured.databaseTimeoutMs, pgliteTemplate: buildOutput('pglite-template.tar.gz') },
    (line) => logger.info(line),
  ).catch(async (error: unknown) => {
    await chainToTake.discard();
    throw databaseUnreachable(configured.databaseUrl, error) ?? error;
  });
  const onChain = await (async () => {
    const decided = await withChainOfStore(configured, store.db, logger);
    const refusal = await whyNotBesideOtherNodes(decided, store.db);
    if (refusal) throw new ConfigError(refusal);
    return decided;
  })().catch(async (error: unknown) => {
    await chainToTake.discard();
    await store.close();
    throw error;
  });
  let trading: Trading | undefined;
  let leadership: Leadership | undefined;
  let presence: NodePresence | undefined;
  let oracle: Oracle | undefined;
  let fanout: RedisFanout | undefined;
  let relay: BookRelay | undefined;
  let marketChanges: MarketChangeRelay | undefined;
  let sessionRelay: SessionRelay | undefined;
  let announced: AnnouncedRelay | undefined;
  let rewards: Rewards | undefined;
  let portfolio: Portfolio | undefined;
  let shared: SharedState | undefined;
  let prices: Prices | undefined;
  let templates: Templates | undefined;
  let nodeJobs: RunningJobs | undefined;
  let chain: RunningChain | undefined;
  let closed = false;
  try {
    // Before any service reads the contract addresses: with CHAIN=embedded they are the deployed ones.
    const taken = await chainToTake.take(onChain);
    chain = taken.chain;
    const config = withDeployedContracts(onChain, chain.deployed);
    logger.info(`${describeChain(chain, config)} (ready in ${taken.readyMs} ms)`);
    const clock: Clock = config.clock === 'manual' ? createManualClock() : realClock;
    const operatorUserId = await getOrCreateSetting(store.db, 'operator_user_id', () => randomUUID());
    const cursorSecret = await getOrCreateSetting(store.db, 'cursor_secret', () => randomBytes(32).toString('hex'));
    // Every node on one database shares its Redis keys and channels; exchanges sharing one Redis stay apart.
    const clusterKey = `pmx#${await getOrCreateSetting(store.db, 'cluster_id', () => randomUUID())}`;
    shared = await openSharedState({ redisUrl: config.redisUrl, key: clusterKey, onLost: (error) => logger.warn({ err: error }, 'Redis connection of rate limits and the replay guard failed; reconnecting') });
    // A chain with the exchange's contracts names each user's wallet by its factory; CHAIN=none keeps the fixed derivation.
    const identity = await createIdentity({ config, clock, store, shared, proxyWalletOf: deployedProxyWallets(chain.deployed) ?? deriveProxyWallet });
    // Demo and test runs (--demo, CLOCK=manual) use the generated keys by design and stay quiet.
    if (identity.generatedKeys.length > 0 && !options.demo && config.clock !== 'manual') {
      logger.warn(`${identity.generatedKeys.join(' and ')} ${identity.generatedKeys.length > 1 ? 'are' : 'is'} not set: generated keys are kept ${store.kind === 'postgres' ? 'in the database beside the data they protect (--allow-generated-keys)' : `in ${config.dataDir.startsWith('memory://') ? 'memory' : 'server-keys.json of the data directory'}`}; set ${identity.generatedKeys.length > 1 ? 'them' : 'it'} before real money is at stake (README "Security")`);
    }
    if (!config.adminToken) logger.info('ADMIN_TOKEN is not set: the admin routes (/api/v1/admin) answer 401 until the server starts with one');
    const events = new DomainEvents();
    // On PostgreSQL every node is a candidate for the engine (EXTENSIONS.md section 12); PGlite is
    // one process's own database, so its node always runs the engine.
    // While this process lives, its presence lock says so: a killed node's lease is taken at once.
    presence = config.databaseUrl ? await holdNodePresence(config.databaseUrl, nodeId, (error) => logger.warn({ err: error }, 'the node presence connection was lost; reconnecting')) : undefined;
    const lease = config.databaseUrl ? new LeaseLeadership({ db: store.db, nodeId, failoverTimeoutMs: config.failoverTimeoutMs, logger }) : undefined;
    const nodeLeadership: Leadership = lease ?? new SoloLeadership(nodeId);
    leadership = nodeLeadership;
    // Journal appends and reward minutes are written only while this node holds the lease.
    const fenced = lease ? { fence: (tx: Db) => lease.fence(tx) } : {};
    const chainSettlement = await chainSettlementSetup(chain, config);
    const chainIndex = chainIndexSetup(chain, chainSettlement);
    if (config.redisUrl) {
      // Loaded only where REDIS_URL is set: a single node never pays for the Redis client at boot.
      const { connectRedisFanout } = await import('./realtime/redis-fanout.ts');
      fanout = await connectRedisFanout(config.redisUrl, logger, clusterKey);
      relay = await BookRelay.connect(fanout, logger);
      marketChanges = new MarketChangeRelay(fanout, logger);
      sessionRelay = new SessionRelay(fanout, logger);
      announced = new AnnouncedRelay(fanout, events, logger);
    }
    const lookups = createTradingLookups(store.db);
    const markets = createMarketDirectory(store.db);
    trading = createTrading({
      config,
      clock,
      db: store.db,
      events,
      logger,
      markets,
      orderMarkets: lookups.orderMarkets,
      eventMarketIds: lookups.eventMarketIds,
      cursorSecret,
      signatureWorkers: config.signatureWorkers,
      ...(lease ? { fence: lease } : {}),
      // A socket's node alive keeps it through a takeover while its node names it again; without a lease, this node is the only one.
      presentNodes: lease ? (nodes) => presentNodesAmong(store.db, nodes) : async (nodes) => nodes.filter((node) => node === nodeId),
      // Standbys follow the journal as it is appended (docs/engine.md "Standbys").
      ...(config.databaseUrl ? { listen: (handlers: Parameters<typeof listenToJournal>[1]) => listenToJournal(config.databaseUrl!, handlers) } : {}),
      ...(chainSettlement ? { chainSettlement } : {}),
      ...(chainIndex ? { chainIndex } : {}),
      ...(announced ? { announced } : {}),
    });
    const engine = trading.engine;
    const runsEngine = () => nodeLeadership.role === 'leader';
    // Cancel-on-disconnect sockets are engine state: recorded by the engine's node, this one or through Redis.
    const sessionsOut = sessionRelay;
    const recordSession = (change: SessionChange) => (sessionsOut && !runsEngine() ? sessionsOut.announce(change) : engine.session(change));
    const sessions = {
      opened: (apiKey: string, sessionId: string, resumes: string | null) => recordSession({ apiKey, change: 'open', sessionId, resumes, node: nodeId }),
      closed: (apiKey: string, sessionId: string) => recordSession({ apiKey, change: 'close', sessionId, resumes: null, node: nodeId }),
    };
    // One record of payments sent on chain for ledger moves: the rewards' claims, the oracle's payouts, credits and withdrawals.
    const intents = paymentIntentsIn(store.db);
    const payers = operatorPayers(chain, intents);
    rewards = createRewards({
      db: store.db, clock, events, logger,
      payFromTreasury: ({ to, amount, ref }) => engine.transfer({ from: REWARD_TREASURY, to, asset: COLLATERAL, amount, why: 'REWARD', ref, once: true }),
      // On a chain the treasury is the operator's side, as for credits: minted locally, its own balance elsewhere (EXTENSIONS.md section 14).
      payOnChain: payers?.reward,
      minPayoutBaseUnits: unitsFromNumber(config.rewardsMinPayoutUsdc) ?? BASE_UNITS_PER_UNIT,
      quotesByMarket: () => engine.reads.restingOrdersByMarket(),
      ...fenced,
    });
    // Publishing and patching markets reach the engine only after the catalogue committed them;
    // on a node without the engine, through the engine node.
    const refreshMarkets = async (ids: string[]) => {
      for (const id of ids) await engine.refreshMarket(id);
    };
    const announcer = marketChanges;
    const onMarketsChanged = (ids: string[]) => (announcer && !runsEngine() ? announcer.announce(ids) : refreshMarkets(ids));
    const rewardReads = rewards.reads;
    // Price-target markets resolve by an operator proposal through the oracle (built just below).
    const proposeFromPrice = (marketId: string, outcome: 'YES' | 'NO') => oracle!.service.propose({ kind: 'operator' }, marketId, outcome);
    prices = createPrices({ db: store.db, clock, logger, feed: createFeed(config, clock), propose: proposeFromPrice });
    // With the contracts on chain, markets take ConditionalTokens' ids and are prepared there as they are published, the operator their oracle.
    const { operator, deployed } = chain;
    const marketsOnChain = operator && deployed ? { ...chainMarkets(operator, deployed), deriveIds: deriveChainMarketIds } : undefined;
    const catalogue = createCatalogue({ db: store.db, clock, config, operatorUserId, onMarketsChanged, marketRewards: (ids) => rewardReads.marketRewards(ids), priceTargets: prices.targets, marketsOnChain });
    const liveRewards = rewards;
    templates = createTemplates({ db: store.db, clock, logger, catalogue: catalogue.admin, putRewards: (marketId, input) => liveRewards.putConfig(marketId, input) });
    const marketData = createMarketData({ db: store.db, clock, catalogue: catalogue.reads, engine: engine.reads, tradeActivityMinUsd: config.tradeActivityMinUsd });
    // Split, merge and redeem go through the users' wallets on chain first where a chain runs; resolutions are reported there.
    const conditionalTokens = createConditionalTokens({ engine, chain, payers, db: store.db, events, now: () => new Date(clock.nowMs()), logger });
    oracle = createOracle({ db: store.db, clock, engine, redeem: conditionalTokens.operations.redeem });
    portfolio = createPortfolio({ db: store.db, clock, events, engine: engine.reads, onProjectionError: (error) => logger.warn({ err: error }, 'position projection failed; the next read retries it') });
    const books = engineNodeBookReads(engine.reads, relay, runsEngine);
    const embeddedAutovacuum = store.kind === 'pglite' ? createEmbeddedAutovacuum(store.db, logger) : undefined;
    const paymentIntents = payers ? intents : undefined;
    const paymentCompletion = operator && paymentIntents ? new PaymentCompletion({ operator, intents, engine, db: store.db, logger }) : undefined;
    const jobs = declareBackgroundJobs({ engine, oracle, rewards, templates, prices, paymentCompletion, embeddedAutovacuum, logger });
    const ctx: AppContext = { config, clock, store, logger, sharedState: shared, operatorUserId, identity, catalogue, trading, books, marketData, oracle, rewards, portfolio, prices, templates, events, jobs, leadership: nodeLeadership, chain, conditionalTokens, payers, paymentIntents, ready: false };
    const app = await buildApp(ctx, { users: identity.authenticator, quietRequestLogs: options.demo === true, clusterSecret: await getOrCreateSetting(store.db, 'cluster_forwarding_secret', () => randomBytes(32).toString('hex')) });
    const realtime = await attachRealtime(app.server, {
      events,
      books: { local: { snapshot: (tokenId) => engine.reads.bookSnapshot(tokenId) }, relay, runsEngine },
      handshake: { verify: (auth, connectionId) => identity.authenticator.authenticateSocket(auth, connectionId) },
      sessions,
      fanout,
      tradeActivityMinUsd: config.tradeActivityMinUsd,
      logger: app.log,
      clock,
      socketsPerAddress: config.socketsPerAddress,
      clientAddress: (request) => clientAddressOf(request.socket.remoteAddress ?? 'unknown', request.headers['x-forwarded-for'], proxyTrust(config.trustProxy)),
    });
    await relayRevocations(identity, realtime, fanout, logger);
    await sessionRelay?.onAdopted(() => (runsEngine() ? Promise.resolve() : realtime.reaffirmSessions()));
    app.addHook('preClose', () => realtime.close());
    registerSocketMetrics(metricsRegistryOf(app), realtime.io, ['/', '/user']);
    for (const metric of embeddedAutovacuum?.metrics ?? []) metricsRegistryOf(app).registerMetric(metric);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    // Sign-in messages name the public origins (PUBLIC_URL); unset, the ones this server listens on.
    identity.signIn.listeningOn(listenOrigins(config, port));
    // Where `pmx audit` finds this server's chain while it runs (data-dir-lock.ts).
    recordServerUrl(config.dataDir, advertisedUrl(config.host, port));
    const redis = { fanout, relay, marketChanges, sessionRelay, announced, shared };
    const timers = { timers: clock.kind === 'real', logger };
    nodeJobs = await startBackgroundJobs(jobs.filter((job) => !job.leaderOnly), timers);
    // What the engine's node runs, and stops when the engine moves to another node: the
    // leader-only jobs (the engine first), then serving the other nodes.
    let leaderJobs: RunningJobs | undefined;
    let departures: { stop(): Promise<void> } | undefined;
    const duties: LeaderDuties = {
      async begin() {
        leaderJobs = await startBackgroundJobs(jobs.filter((job) => job.leaderOnly), timers);
        conditionalTokens.reporter?.start();
        conditionalTokens.oraclePayouts?.start();
        // The engine kept the recorded sockets of live nodes only while they are named again when it started: this node names its own.
        await realtime.reaffirmSessions();
        await redis.marketChanges?.serve(refreshMarkets);
        await redis.sessionRelay?.serve((change) => engine.session(change));
        // The other nodes' live sockets too (told once this node hears their answers).
        await redis.sessionRelay?.announceAdopted();
        // A node killed with sockets of its own says nothing: when one leaves, its sockets are counted as dropped, as above.
        const relayOfSessions = redis.sessionRelay;
        if (lease && relayOfSessions) {
          const looks = nodeDepartures(store.db);
          departures = startIntervalJob('node departures', async () => {
            if (!(await looks.look())) return;
            await engine.adoptSessions();
            await realtime.reaffirmSessions();
            await relayOfSessions.announceAdopted();
          }, logger, DEPARTURE_LOOK_MS);
        }
        await redis.relay?.serve({ snapshot: (tokenId) => engine.reads.bookSnapshot(tokenId), lastTradePrice: (tokenId) => engine.reads.lastTradePrice(tokenId) });
        engine.readUsedHashes();
      },
      async end() {
        await departures?.stop();
        departures = undefined;
        conditionalTokens.reporter?.stop();
        conditionalTokens.oraclePayouts?.stop();
        await redis.relay?.stopServing();
        await redis.marketChanges?.stopServing();
        await redis.sessionRelay?.stopServing();
        await leaderJobs?.stop();
        leaderJobs = undefined;
        // The node that takes over announces what it did not hear of: let it hear what this one announced.
        await redis.announced?.sentAll();
        // A standby again: it follows the journal, ready to take the engine back.
        if (lease && !closed) await engine.follow();
      },
      canLead: () => engine.whole,
    };
    // On PostgreSQL every node starts as a standby that follows the journal; the one that takes
    // the lease turns it into the engine.
    if (lease) await engine.follow();
    await nodeLeadership.start(duties, config.advertiseUrl ?? advertisedUrl(config.host, port));
    if (nodeLeadership.role !== 'leader') logger.info('another node runs the matching engine: this node follows its journal, passes order commands to it and takes over if it fails');
    ctx.ready = true;
    const running = trading;
    const runningPortfolio = portfolio;
    const runningNodeJobs = nodeJobs;
    const runningChain = chain;
    const runningPresence = presence;
    // First give up the engine (its queue drained, the lease released: a standby takes over at its
    // next look) while the listener stops taking connections; then let the requests being handled
    // finish, for at most DRAIN_MS, and cut every connection left (issue 38).
    const closeInOrder = async (): Promise<void> => {
      const leaving = nodeLeadership.stop();
      const closing = app.close();
      await drainRequests(app, DRAIN_MS);
      app.server.closeAllConnections();
      await closing;
      await leaving;
      await runningPresence?.close();
      await runningNodeJobs.stop();
      await redis.relay?.close();
      await redis.marketChanges?.close();
      await redis.sessionRelay?.stopServing();
      redis.announced?.close();
      await redis.fanout?.close();
      await redis.shared.close();
      await running.stop();
      await runningPortfolio.stop();
      await runningChain.close();
      await store.close();
    };
    return {
      app,
      ctx,
      url,
      async close() {
        if (closed) return;
        closed = true;
        ctx.ready = false;
        const holding = holdProcess();
        try {
          await closeInOrder();
        } finally {
          holding.release();
        }
      },
    };
  } catch (error) {
    await leadership?.stop();
    await presence?.close();
    await nodeJobs?.stop();
    await relay?.close();
    await marketChanges?.close();
    announced?.close();
    await fanout?.close();
    await shared?.close();
    await rewards?.stop();
    await trading?.stop();
    await portfolio?.stop();
    await chain?.close();
    await store.close();
    throw error;
  }
}

/**
 * The origins a browser or client may reach this server by without a proxy: localhost and
 * 127.0.0.1 on its port, its HOST when that is a name or an address (not a wildcard), and
 * ADVERTISE_URL.
 */
function listenOrigins(config: Config, port: number): string[] {
  const origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  if (config.host !== '0.0.0.0' && config.host !== '::') origins.push(`http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`);
  if (config.advertiseUrl) origins.push(new URL(config.advertiseUrl).origin);
  return origins;
}

/** The URL other nodes use for this one when ADVERTISE_URL is not set: a wildcard host means loopback. */
function advertisedUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}

/**
 * Why this node must not join the nodes already running on its DATABASE_URL, if it must not. Without
 * Redis it would hold its own replay guard, rate limits, nonces and revocations (issue 38). On the
 * embedded chain it would settle on an anvil of its own, which holds none of the wallets the
 * others' chain holds (src/chain/README.md "One node").
 */
async function whyNotBesideOtherNodes(config: Config, db: Db): Promise<string | undefined> {
  if (!config.databaseUrl || (config.redisUrl && config.chain !== 'embedded')) return undefined;
  if (!(await anotherNodeRuns(db, config.failoverTimeoutMs))) return undefined;
  if (!config.redisUrl) return 'another node runs the engine on this DATABASE_URL and REDIS_URL is not set: without Redis this node would not share the replay guard, rate limits, sign-in nonces or revocations with it. Set the same REDIS_URL on every node';
  return 'another node runs the engine on this DATABASE_URL and this one would start its own embedded chain (CHAIN=embedded, the default), which holds none of the other nodes\' wallets: several nodes settle on one chain they all reach, CHAIN=rpc (or CHAIN=none)';
}
