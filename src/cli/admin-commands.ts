import type { Command } from 'commander';
import type { EventInput } from '../client/index.ts';
import { depositOnce } from './deposit-once.ts';
import { examples, output, printTable } from './output.ts';
import { clip, decimal } from './people.ts';
import { CliError, clientFor, count, globals, run } from './sdk-client.ts';
import { resolveTaxonomy } from './taxonomy-commands.ts';
import { priceTargetSummary } from './price-commands.ts';
import { marketIdOf } from './refs.ts';

/** Operator commands through the SDK's admin section (they need --admin-token or ADMIN_TOKEN). */
export function registerAdminCommands(program: Command): void {
  program.command('credit <address> <amount>').description("deposit collateral for a user's sign-in address")
    .option('--idempotency-key <uuid>', 'credit once per key (one is made when not given, and named if the credit may have been made): after a timeout or an error, run the command again with the same key')
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx credit 0xAbc… 1000', 'ADMIN_TOKEN=… pmx credit 0xAbc… 1000 --idempotency-key 0b0e6d2c-3f0a-4e55-9a51-1c2d3e4f5a6b']))
    .action(run(async (address: string, amount: string, options: { idempotencyKey?: string }, command: Command) => {
      const admin = clientFor(command, 'admin').admin;
      const result = await depositOnce(options.idempotencyKey, (key) => `pmx credit ${address} ${amount} --idempotency-key ${key}`, (idempotencyKey) => admin.credit(address, amount, { idempotencyKey }));
      output(!!globals(command).json, result, () => console.log(`${result.address} now holds ${decimal(result.balance)} USDC`));
    }));

  const events = program.command('events').description('list, create and publish events, add markets')
    .addHelpText('after', examples(['pmx events list', 'pmx events create "Rain tomorrow?" --market Rain --publish']));
  events.command('list').description('public events')
    .option('--status <status>', 'DRAFT, ACTIVE, RESOLVED or ENDED')
    .addHelpText('after', examples(['pmx events list', 'pmx events list --status ACTIVE --json']))
    .action(run(async (options: { status?: string }, command: Command) => {
      const page = await clientFor(command).events.list({ limit: 100, ...(options.status ? { eventStatus: options.status as 'ACTIVE' } : {}) });
      // Fits 100 columns: each event's slug, then its markets by slug (whole, as every command takes
      // them; --json has the ids and token ids) with the price of the first outcome (its last
      // trade, 0.5 before any).
      output(!!globals(command).json, page, () => printEventList(page.data));
    }));

  events.command('create <name>').description('create an event with one market per --market (DRAFT unless --publish)')
    .requiredOption('--market <name...>', 'market names (one market each)')
    .option('--description <text>', 'event description', '')
    .option('--tick-size <tick>', '0.1, 0.01, 0.001 or 0.0001')
    .option('--neg-risk', 'exactly one market resolves YES')
    .option('--fee-bps <bps>', 'taker fee rate of the markets')
    .option('--end-date <iso>', 'when the event ends')
    .option('--category <ref...>', 'categories: ids or names (pmx categories list)')
    .option('--tag <ref...>', 'tags: ids or slugs (pmx tags list)')
    .option('--reward <amount>', "the oracle proposer's reward (collateral)")
    .option('--proposal-bond <amount>', "the oracle proposer's bond (collateral)")
    .option('--liveness <seconds>', 'the dispute window of a proposal (default 7200)')
    .option('--publish', 'publish at once (markets become ACTIVE with token ids)')
    .addHelpText('after', examples(['pmx events create "Rain in Paris tomorrow?" --market "Rain" --publish', 'pmx events create "Election" --market A --market B --neg-risk --category Politics --tag elections --json']))
    .action(run(async (name: string, options: { market: string[]; description: string; tickSize?: string; negRisk?: boolean; feeBps?: string; endDate?: string; category?: string[]; tag?: string[]; reward?: string; proposalBond?: string; liveness?: string; publish?: boolean }, command: Command) => {
      const client = clientFor(command, 'admin');
      const taxonomy = await resolveTaxonomy(client, { categories: options.category ?? [], tags: options.tag ?? [] });
      const input: EventInput = {
        name,
        description: options.description,
        ...(options.negRisk ? { negRisk: true } : {}),
        ...(options.feeBps ? { orderFeeRateBps: count('--fee-bps', options.feeBps) } : {}),
        ...(options.endDate ? { endDate: options.endDate } : {}),
        ...(taxonomy.categories.length ? { categories: taxonomy.categories } : {}),
        ...(taxonomy.tags.length ? { tags: taxonomy.tags } : {}),
        ...(options.reward ? { reward: options.reward } : {}),
        ...(options.proposalBond ? { proposalBond: options.proposalBond } : {}),
        ...(options.liveness ? { liveness: count('--liveness', options.liveness) } : {}),
        markets: options.market.map((market) => ({ name: market, ...(options.tickSize ? { tickSize: options.tickSize as '0.01' } : {}) })),
      };
      const draft = await client.admin.createEvent(input);
      const event = options.publish ? await client.admin.publishEvent(draft.id) : draft;
      output(!!globals(command).json, event, () => {
        console.log(`event ${event.id} (${event.slug}) ${event.eventStatus}`);
        printTable(event.markets, ['id', 'name', 'status', 'tokenId1', 'tokenId2']);
      });
    }));

  events.command('add-market <eventId> <name>').description('add a DRAFT market to an event; --publish makes it ACTIVE at once')
    .option('--outcomes <labels>', 'the two outcome labels, comma-separated (default Yes,No)')
    .option('--tick-size <tick>', '0.1, 0.01, 0.001 or 0.0001')
    .option('--fee-bps <bps>', "taker fee rate (default: the event's)")
    .option('--end-date <iso>', 'when the market ends')
    .option('--publish', "publish the event's DRAFT markets (this one included)")
    .addHelpText('after', examples(['pmx events add-market 0b6e… "Candidate D" --publish', 'pmx events add-market 0b6e… "Over 2.5 goals" --outcomes Over,Under --tick-size 0.001 --json']))
    .action(run(async (eventId: string, name: string, options: { outcomes?: string; tickSize?: string; feeBps?: string; endDate?: string; publish?: boolean }, command: Command) => {
      const outcomes = options.outcomes?.split(',').map((o) => o.trim());
      if (outcomes && (outcomes.length !== 2 || outcomes.some((o) => o === ''))) throw new CliError(`--outcomes takes two labels, like Yes,No; got "${options.outcomes}"`);
      const client = clientFor(command, 'admin');
      const added = await client.admin.addMarket(eventId, {
        name,
        ...(outcomes ? { outcome1: outcomes[0]!, outcome2: outcomes[1]! } : {}),
        ...(options.tickSize ? { tickSize: options.tickSize as '0.01' } : {}),
        ...(options.feeBps ? { orderFeeRateBps: count('--fee-bps', options.feeBps) } : {}),
        ...(options.endDate ? { endDate: options.endDate } : {}),
      });
      const market = options.publish ? (await client.admin.publishEvent(eventId)).markets.find((m) => m.id === added.id)! : added;
      output(!!globals(command).json, market, () => printTable([market], ['id', 'name', 'status', 'outcome1', 'outcome2', 'tokenId1', 'tokenId2']));
    }));

  events.command('publish <eventId>').description('publish a DRAFT event')
    .addHelpText('after', examples(['pmx events publish 0b6e…']))
    .action(run(async (eventId: string, _options: unknown, command: Command) => {
      const event = await clientFor(command, 'admin').admin.publishEvent(eventId);
      output(!!globals(command).json, event, () => printTable(event.markets, ['id', 'name', 'status', 'tokenId1', 'tokenId2']));
    }));

  program.command('market <market>').description('pause, resume, hide, re-fee or set the price target of a market; shows a price target with the live reference price and the countdown')
    .option('--pause', 'stop order entry').option('--resume', 'allow order entry again')
    .option('--hide', 'hide from front ends').option('--show', 'show again')
    .option('--fee-bps <bps>', 'taker fee rate')
    .option('--target <price>', 'the target of a price-target market (until it is proposed)')
    .addHelpText('after', examples(['pmx market 6f1c… --pause', 'pmx market 6f1c… --target 97000']))
    .action(run(async (marketId: string, options: { pause?: boolean; resume?: boolean; hide?: boolean; show?: boolean; feeBps?: string; target?: string }, command: Command) => {
      const client = clientFor(command, 'admin');
      const market = await client.admin.patchMarket(await marketIdOf(client, marketId), {
        ...(options.pause || options.resume ? { isPaused: !!options.pause } : {}),
        ...(options.hide || options.show ? { hidden: !!options.hide } : {}),
        ...(options.feeBps ? { orderFeeRateBps: count('--fee-bps', options.feeBps) } : {}),
        ...(options.target ? { priceTargetConfig: { targetPrice: options.target } } : {}),
      });
      const target = await priceTargetSummary(client, market);
      output(!!globals(command).json, market, () => {
        console.log(`market ${market.id}: paused ${market.isPaused}, hidden ${market.hidden}, fee ${market.orderFeeRateBps} bps`);
        if (target) console.log(`${target.pair} target ${target.target}, reference ${target.reference}, resolves ${target.resolveAt} (in ${target.resolvesIn})`);
      });
    }));

  program.command('clock').description('move a manual server clock (test servers)')
    .option('--advance-ms <ms>', 'move forward by this many milliseconds').option('--now <iso>', 'set to this time')
    .addHelpText('after', examples(['pmx clock --advance-ms 7200000', 'pmx clock --now 2030-01-01T00:00:00Z']))
    .action(run(async (options: { advanceMs?: string; now?: string }, command: Command) => {
      const result = await clientFor(command, 'admin').admin.clock(options.now ? { now: options.now } : { advanceMs: Number(options.advanceMs ?? 0) });
      output(!!globals(command).json, result, () => console.log(`server time ${result.now}`));
    }));
}

const LIST_WIDTH = 100;

/** `events list` for people: an event's slug on its own line, its markets indented below it. */
function printEventList(events: { slug: string; name: string; markets: { slug: string; status: string; outcome1: string; chance: number }[] }[]): void {
  if (events.length === 0) {
    console.log('(none)');
    return;
  }
  const rows = events.map((e) => ({ event: e, markets: e.markets.map((m) => ({ slug: m.slug, status: m.status, price: `${clip(m.outcome1, 12)} ${decimal(m.chance)}` })) }));
  const all = rows.flatMap((r) => r.markets);
  const statusWidth = Math.max(6, ...all.map((m) => m.status.length));
  const priceWidth = Math.max(5, ...all.map((m) => m.price.length));
  const slugWidth = Math.min(Math.max(6, ...all.map((m) => m.slug.length)), LIST_WIDTH - 2 - statusWidth - priceWidth - 4);
  const line = (slug: string, status: string, price: string) => `  ${clip(slug, slugWidth).padEnd(slugWidth)}  ${status.padEnd(statusWidth)}  ${price}`.trimEnd();
  console.log(`${'EVENT / MARKET'.padEnd(slugWidth + 2)}  ${'STATUS'.padEnd(statusWidth)}  PRICE`);
  for (const { event, markets } of rows) {
    console.log(clip(`${event.slug}  ${event.name}`, LIST_WIDTH));
    for (const m of markets) console.log(line(m.slug, m.status, m.price));
  }
}
