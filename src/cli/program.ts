import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import { projectPath } from '../build-output.ts';
import { configVariables, loadConfig } from '../config.ts';
import { registerAdminCommands } from './admin-commands.ts';
import { refuseWhatIsNotRead } from './config-flags.ts';
import { registerDemoCommand } from './demo-command.ts';
import { registerDeployCommand } from './deploy-command.ts';
import type { DemoMakers } from './demo-makers.ts';
import type { PriceWalk } from './demo-series.ts';
import { registerMakerSafetyCommands } from './maker-safety-commands.ts';
import { registerMarketDataCommands } from './market-data-commands.ts';
import { registerOracleCommands } from './oracle-commands.ts';
import { registerPortfolioCommands } from './portfolio-commands.ts';
import { registerPriceCommands } from './price-commands.ts';
import { registerRewardsCommands } from './rewards-commands.ts';
import { registerTaxonomyCommands } from './taxonomy-commands.ts';
import { examples } from './output.ts';
import { openMigratedStore } from './migrated-store.ts';
import { checkPortFree, listenProblem } from './port-check.ts';
import { EXIT_LOCAL_ERROR } from './sdk-client.ts';
import { registerTraderCommands } from './trader-commands.ts';

/** `serve` exits with this when it cannot listen (port in use, no permission, no such address). */
const EXIT_CANNOT_LISTEN = 3;

/** A stop exits within this whatever its clients do (issue 38, issue 40): under 10 s with room to spare. */
const STOP_LIMIT_MS = 9_000;
/** How long the demo's bots get to cancel their quotes when the demo stops. */
const BOTS_STOP_MS = 2_000;

/**
 * Every `pmx` command: server, operator and trader. Configuration flags (`--port 4000`,
 * `--data-dir ./x`) override the environment. Built by a function so tests can walk the commands.
 */
export function buildProgram(): Command {
  const program = new Command('pmx').description('Prediction-market exchange: server, operator and trader commands')
    .option('--url <url>', 'exchange URL for client commands (default PMX_URL, the saved login, or http://127.0.0.1:3000)')
    .option('--admin-token <token>', 'operator token for admin commands (default ADMIN_TOKEN)')
    .option('--json', 'print JSON instead of tables')
    .version(packageVersion(), '-V, --version', 'print the version of pmx')
    // Commander's own refusals (an unknown option, a missing or extra argument) are usage errors:
    // exit code 2, as every local refusal, where commander exits 1, the code of a server's refusal.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT_LOCAL_ERROR));

  program
    .command('serve', { isDefault: true })
    .description('run the exchange (REST, Socket.IO, engine, jobs) on the configured store')
    .option('--demo', 'seed a demo exchange and print its admin token')
    .option('--allow-generated-keys', 'with DATABASE_URL, generate missing JWT_SECRET and API_KEY_ENCRYPTION_KEY into the database instead of refusing to start')
    .addHelpText('after', examples(['pmx serve --port 4000', 'ADMIN_TOKEN=… DATABASE_URL=postgresql://… pmx serve', 'pmx serve --demo']))
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (options: { demo?: boolean; allowGeneratedKeys?: boolean }, command: Command) => {
      // `serve` is the default command, so a mistyped one (`pmx ordres`) would start a server here.
      refuseWhatIsNotRead(command, configVariables());
      const configured = loadConfig({ argv: process.argv.slice(2) });
      const loaded = options.allowGeneratedKeys ? { ...configured, allowGeneratedKeys: true } : configured;
      // Before anything slow (loading the server's modules, opening the store): a port in use is
      // one line and exit code 3 at once.
      try {
        await checkPortFree(loaded.host, loaded.port);
      } catch (error) {
        console.error(`pmx: ${listenProblem(loaded.host, loaded.port, error)}`);
        process.exit(EXIT_CANNOT_LISTEN);
      }
      // Loaded here, not at the top: client commands should not pay for the server's modules, nor
      // a plain serve for the demo's (the SDK, its bots).
      const { startServer } = await import('../server.ts');
      const demo = options.demo ? await import('./demo.ts') : undefined;
      const { config, generatedAdminToken } = demo ? demo.demoConfig(loaded) : { config: loaded, generatedAdminToken: undefined };
      const server = await startServer(config, { demo: demo !== undefined });
      server.app.log.info(`exchange listening on ${server.url} (API ${server.url}/api/v1, docs ${server.url}/docs)`);
      let makers: DemoMakers | undefined;
      let walk: PriceWalk | undefined;
      // A stop (SIGTERM, Ctrl-C) exits within STOP_LIMIT_MS whatever the clients do, and says so
      // in one line: the engine given up first, the requests drained (bounded), the store closed.
      // Handled from the moment the server runs, the demo's setup included (its bots may not run yet).
      let stopping = false;
      const stop = async (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        const startedAt = performance.now();
        const done = (how: string) => {
          server.app.log.info(`stopped on ${signal} in ${Math.round(performance.now() - startedAt)} ms${how}`);
          process.exit(0);
        };
        setTimeout(() => done(': the drain ran out of time, connections and work left were cut'), STOP_LIMIT_MS).unref();
        // The demo's bots cancel their quotes, for at most BOTS_STOP_MS: the server then stops regardless.
        const bots = Promise.all([walk?.stop(), makers?.stop()]).catch(() => {});
        await Promise.race([bots, new Promise((resolve) => setTimeout(resolve, BOTS_STOP_MS).unref())]);
        await server.close();
        done('');
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (demo) {
        try {
          const { createClient } = await import('../client/index.ts');
          const { startDemoMakers } = await import('./demo-makers.ts');
          const { startDemoPriceWalk } = await import('./demo-series.ts');
          const { seeded } = await demo.seedDemo(createClient({ baseUrl: server.url, credentials: { adminToken: config.adminToken! } }));
          console.log(demo.demoBanner(server.url, config.adminToken!, generatedAdminToken !== undefined, seeded));
          walk = await startDemoPriceWalk(server.url, config.adminToken!, { logger: server.app.log });
          makers = await startDemoMakers(server.url, config.adminToken!, { logger: server.app.log });
        } catch (error) {
          // A stop during the demo's setup cuts its requests short: that is the stop, not an error.
          if (!stopping) throw error;
        }
      }
    });

  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .addHelpText('after', examples(['DATABASE_URL=postgresql://… pmx migrate']))
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      refuseWhatIsNotRead(command, configVariables());
      const { store, applied } = await openMigratedStore(loadConfig({ argv: process.argv.slice(2) }));
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
      await store.close();
    });

  program
    .command('audit')
    .description('replay the journal against its hash chain, its snapshots and the tables, and check every invariant of the ledger, orders and trades; exits 1 and names each broken one')
    .addHelpText('after', examples(['pmx audit --data-dir ./data']))
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      refuseWhatIsNotRead(command, configVariables());
      const { auditExchange } = await import('./audit-exchange.ts');
      const { reachAuditChain } = await import('./audit-chain-target.ts');
      const { chainKindOf } = await import('../chain-choice.ts');
      const configured = loadConfig({ argv: process.argv.slice(2) });
      const { store } = await openMigratedStore(configured);
      let ok = false;
      try {
        const config = { ...configured, chain: await chainKindOf(configured, store.db) };
        // Trades settle on the chain, embedded or rpc (src/engine/chain-settlement/README.md); the ledger is checked against it.
        const chain = await reachAuditChain(config);
        const reached = chain && 'target' in chain ? chain : undefined;
        const report = await auditExchange(store.db, { onChain: config.chain !== 'none', ...(chain ? { chain: 'target' in chain ? chain.target : chain } : {}) }).finally(() => reached?.close());
        ok = report.ok;
        const { balances, markets, transactions, blocks, orders, trades, records, snapshots, wallets } = report.counts;
        // What the ledger was compared with, in words; a chain not reached is a BROKEN line below.
        console.log(`audited ${records} journal records from ${snapshots} snapshot(s), ${balances} balances, ${markets} markets, ${transactions} transactions, ${blocks} blocks, ${orders} orders, ${trades} trades${reached ? `, ${wallets} wallets against ${reached.source}` : ''}`);
        for (const v of report.violations) console.error(`BROKEN ${v.invariant}: ${v.detail}`);
        console.log(report.ok ? 'every invariant holds' : `${new Set(report.violations.map((v) => v.invariant)).size} invariant(s) broken`);
      } finally {
        await store.close();
      }
      // Explicitly: PGlite's runtime resets process.exitCode when it shuts down.
      process.exit(ok ? 0 : 1);
    });

  registerDeployCommand(program);
  registerTraderCommands(program);
  registerMakerSafetyCommands(program);
  registerPortfolioCommands(program);
  registerRewardsCommands(program);
  registerMarketDataCommands(program);
  registerOracleCommands(program);
  registerAdminCommands(program);
  registerTaxonomyCommands(program);
  registerPriceCommands(program);
  registerDemoCommand(program);
  return program;
}

/** The installed package's version (package.json), which `pmx --version` prints. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
}
