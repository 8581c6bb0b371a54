import type { Command } from 'commander';
import { seedDemo } from './demo.ts';
import { examples, output, printTable, progress } from './output.ts';
import { clientFor, exchangeOf, globals, run } from './sdk-client.ts';

/**
 * `pmx demo`: the demo catalogue seeded into a running exchange (any store, any host) through the
 * SDK, with a progress bar; `--liquidity` then trades on it until interrupted. `pmx serve --demo`
 * is the one-step form for a fresh local exchange.
 */
export function registerDemoCommand(program: Command): void {
  program.command('demo').description('seed the demo catalogue (categories, tags, three published events, an hourly BTC/USD series) into a running exchange; idempotent')
    .option('--liquidity', "then run the examples' market maker on every market, a taker bot and the BTC/USD price walk until interrupted (their quotes are cancelled on exit)")
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx demo --url http://127.0.0.1:3000', 'ADMIN_TOKEN=… pmx demo --liquidity', 'pmx serve --demo    # a fresh local exchange with the demo, in one step']))
    .action(run(async (options: { liquidity?: boolean }, command: Command) => {
      const admin = clientFor(command, 'admin');
      const { seeded, events } = await seedDemo(admin, progress('seeding the demo'));
      output(!!globals(command).json, { seeded, events }, () => {
        console.log(seeded ? 'demo catalogue seeded' : 'demo catalogue already present');
        printTable(events.flatMap((e) => e.markets.map((m) => ({ event: e.slug, market: m.id, name: m.name, tokenId1: m.tokenId1 }))), ['event', 'market', 'name', 'tokenId1']);
      });
      if (!options.liquidity) return;
      // Loaded here: the examples' bots are only needed for liquidity.
      const { startDemoMakers } = await import('./demo-makers.ts');
      const { startDemoPriceWalk } = await import('./demo-series.ts');
      const { baseUrl, adminToken } = exchangeOf(command);
      const logger = { warn: (...args: unknown[]) => console.error('demo liquidity:', ...args), debug: () => {} };
      const walk = await startDemoPriceWalk(baseUrl, adminToken!, { logger });
      const makers = await startDemoMakers(baseUrl, adminToken!, { logger });
      console.error('demo liquidity running (market makers, a taker bot, the BTC/USD price walk); Ctrl-C stops it and cancels their quotes');
      await new Promise<void>((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
      await walk.stop();
      await makers.stop();
    }));
}
