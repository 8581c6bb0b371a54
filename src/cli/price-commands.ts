import type { Command } from 'commander';
import { ExchangeError, type ExchangeClient, type Market, type TemplateInput } from '../client/index.ts';
import { examples, output, printTable } from './output.ts';
import { CliError, clientFor, count, globals, run } from './sdk-client.ts';
import { resolveTaxonomy } from './taxonomy-commands.ts';

/** "1h 02m 05s" until `targetMs`, or "due" once it has passed. */
export function countdown(fromMs: number, targetMs: number): string {
  const seconds = Math.ceil((targetMs - fromMs) / 1000);
  if (seconds <= 0) return 'due';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h > 0 ? `${h}h ` : ''}${String(m).padStart(h > 0 ? 2 : 1, '0')}m ${String(s).padStart(2, '0')}s`;
}

/** The reference price of a pair now, or undefined when none is known (404). */
async function referenceOrNone(client: ExchangeClient, pair: string) {
  try {
    return await client.prices.reference(pair);
  } catch (error) {
    if (error instanceof ExchangeError && error.status === 404) return undefined;
    throw error;
  }
}

/** A price-target market at a glance: its target, the live reference price, and the countdown to resolveAt. */
export async function priceTargetSummary(client: ExchangeClient, market: Market) {
  const config = market.priceTargetConfig;
  if (!config) return undefined;
  const [reference, { serverTime }] = await Promise.all([referenceOrNone(client, config.pair), client.exchange()]);
  return {
    marketId: market.id,
    name: market.name,
    pair: config.pair,
    targetType: config.targetType,
    target: config.targetPrice ?? 'unknown yet',
    reference: reference?.price ?? 'none',
    referenceAt: reference?.at ?? '',
    resolveAt: config.resolveAt,
    resolvesIn: countdown(serverTime, Date.parse(config.resolveAt)),
  };
}

const PERIODS = ['15m', '1h', '4h', '1d'];

/** `pmx prices …` (reference prices) and `pmx templates …` (recurring price markets), EXTENSIONS.md section 13. */
export function registerPriceCommands(program: Command): void {
  const prices = program.command('prices').description('reference prices of price-target markets')
    .addHelpText('after', examples(['pmx prices get BTC/USD', 'ADMIN_TOKEN=… pmx prices post BTC/USD 97123.45', 'pmx prices market 6f1c…']));

  prices.command('get <pair>').description('the last reference price at or before --at (default now)')
    .option('--at <iso>', 'a past time')
    .addHelpText('after', examples(['pmx prices get BTC/USD', 'pmx prices get BTC/USD --at 2030-01-01T12:00:00Z --json']))
    .action(run(async (pair: string, options: { at?: string }, command: Command) => {
      const price = await clientFor(command).prices.reference(pair, options.at);
      output(!!globals(command).json, price, () => console.log(`${price.pair} ${price.price} at ${price.at} (${price.source})`));
    }));

  prices.command('post <pair> <price>').description('record a reference price (operator; the manual feed)')
    .option('--at <iso>', 'the price time (default now; never in the future)')
    .addHelpText('after', examples(['ADMIN_TOKEN=… pmx prices post BTC/USD 97123.45', 'ADMIN_TOKEN=… pmx prices post ETH/USD 3012.5 --at 2030-01-01T12:00:00Z']))
    .action(run(async (pair: string, price: string, options: { at?: string }, command: Command) => {
      const saved = await clientFor(command, 'admin').admin.postPrice({ pair, price, ...(options.at ? { at: options.at } : {}) });
      output(!!globals(command).json, saved, () => console.log(`${saved.pair} ${saved.price} at ${saved.at}`));
    }));

  prices.command('market <market>').description("a price-target market's target, the live reference price and the countdown to resolution")
    .addHelpText('after', examples(['pmx prices market 6f1c…', 'pmx prices market btc-usd-up-or-down-nov-27-14-00-15-00-utc --json']))
    .action(run(async (marketId: string, _options: unknown, command: Command) => {
      const client = clientFor(command);
      const summary = await priceTargetSummary(client, await client.markets.get(marketId));
      if (!summary) throw new CliError(`market ${marketId} has no price target`);
      output(!!globals(command).json, summary, () => printTable([summary], ['name', 'pair', 'target', 'reference', 'resolveAt', 'resolvesIn']));
    }));

  const templates = program.command('templates').description('recurring price markets: one market per period (operator)')
    .addHelpText('after', examples(['pmx templates list', 'pmx templates create "BTC hourly" --slug btc-hourly --pair BTC/USD --period 1h --first-start 2030-01-01T00:00:00Z']));

  templates.command('list').description('every template')
    .addHelpText('after', examples(['pmx templates list', 'pmx templates list --json']))
    .action(run(async (_options: unknown, command: Command) => {
      const list = await clientFor(command, 'admin').admin.templates.list();
      output(!!globals(command).json, list, () => printTable(list, ['id', 'slug', 'pair', 'period', 'lead', 'enabled', 'eventId']));
    }));

  templates.command('create <name>').description('a template and its series event; markets follow on the clock')
    .requiredOption('--slug <slug>', 'the template and series event slug')
    .requiredOption('--pair <pair>', 'BASE/QUOTE, e.g. BTC/USD')
    .requiredOption('--period <period>', PERIODS.join(', '))
    .requiredOption('--first-start <iso>', 'the start of the first period')
    .option('--description <text>', 'description of the event and its markets', '')
    .option('--lead <n>', 'periods published ahead of the current one (default 1)')
    .option('--timezone <iana>', 'time zone of market names (default UTC)')
    .option('--category <ref...>', 'categories: ids or names')
    .option('--tag <ref...>', 'tags: ids or slugs')
    .option('--liveness <seconds>', 'dispute window of each proposal')
    .addHelpText('after', examples(['pmx templates create "BTC hourly" --slug btc-hourly --pair BTC/USD --period 1h --first-start 2030-01-01T00:00:00Z --timezone America/New_York']))
    .action(run(async (name: string, options: { slug: string; pair: string; period: string; firstStart: string; description: string; lead?: string; timezone?: string; category?: string[]; tag?: string[]; liveness?: string }, command: Command) => {
      if (!PERIODS.includes(options.period)) throw new CliError(`--period must be one of ${PERIODS.join(', ')}, got "${options.period}"`);
      const client = clientFor(command, 'admin');
      const taxonomy = await resolveTaxonomy(client, { categories: options.category ?? [], tags: options.tag ?? [] });
      const input: TemplateInput = {
        name, slug: options.slug, description: options.description, pair: options.pair, period: options.period as TemplateInput['period'], firstStart: options.firstStart,
        ...(options.lead ? { lead: count('--lead', options.lead) } : {}),
        ...(options.timezone ? { displayTimezone: options.timezone } : {}),
        ...(taxonomy.categories.length ? { categories: taxonomy.categories } : {}),
        ...(taxonomy.tags.length ? { tags: taxonomy.tags } : {}),
        ...(options.liveness ? { liveness: count('--liveness', options.liveness) } : {}),
      };
      const template = await client.admin.templates.create(input);
      output(!!globals(command).json, template, () => console.log(`template ${template.id} (${template.slug}), series event ${template.eventId}`));
    }));

  for (const [verb, enabled] of [['enable', true], ['disable', false]] as const) {
    templates.command(`${verb} <templateId>`).description(enabled ? 'publish markets again from the current period' : 'stop publishing markets')
      .addHelpText('after', examples([`pmx templates ${verb} 2f0c…`]))
      .action(run(async (templateId: string, _options: unknown, command: Command) => {
        const client = clientFor(command, 'admin').admin.templates;
        const template = await (enabled ? client.enable(templateId) : client.disable(templateId));
        output(!!globals(command).json, template, () => console.log(`template ${template.id} enabled ${template.enabled}`));
      }));
  }
}
