import type { Command } from 'commander';
import type { BatchMergeResponse, BatchRedeemResponse, ExchangeClient, MergeablePosition, RedeemablePosition, UserPositionsParams } from '../client/index.ts';
import { examples, output, printTable } from './output.ts';
import { decimal } from './people.ts';
import { CliError, clientFor, count, globals, run } from './sdk-client.ts';
import { marketIdOf } from './refs.ts';

/** What differs between `redeem` and `merge`: the listing, the batch call and the words. */
interface PositionBatch {
  name: 'redeem' | 'merge';
  description: string;
  /** What `--all` takes and `--list` shows. */
  listed: string;
  done: string;
  list: (client: ExchangeClient) => Promise<(RedeemablePosition | MergeablePosition)[]>;
  batch: (client: ExchangeClient, marketIds: string[]) => Promise<BatchRedeemResponse | BatchMergeResponse>;
  examples: string[];
}

/** `pmx redeem|merge [markets...] [--all | --list]`: one batch request for every named market (on a chain, one transaction per market). */
function registerPositionBatch(program: Command, kind: PositionBatch): void {
  program.command(`${kind.name} [markets...]`).description(`${kind.description} (one request; on a chain, one transaction per market); --all takes every ${kind.listed} market, --list shows them`)
    .option('--all', `every ${kind.listed} market`)
    .option('--list', `only list the ${kind.listed} markets`)
    .addHelpText('after', examples(kind.examples))
    .action(run(async (marketIds: string[], options: { all?: boolean; list?: boolean }, command: Command) => {
      const client = clientFor(command, 'trader');
      const json = !!globals(command).json;
      if (options.list || options.all) {
        const listed = await kind.list(client);
        if (options.list) return output(json, listed, () => printTable(listed, ['marketId', 'slug', 'name']));
        marketIds = listed.map((r) => r.marketId);
        if (marketIds.length === 0) return output(json, { txHash: '', included: [], excluded: [] }, () => console.log(`nothing to ${kind.name}`));
      }
      if (marketIds.length === 0) throw new CliError('name market ids, or pass --all or --list');
      const result = await kind.batch(client, await Promise.all(marketIds.map((ref) => marketIdOf(client, ref))));
      output(json, result, () => {
        console.log(`${kind.done} ${result.included.length} market(s)${result.txHash ? ` (tx ${result.txHash})` : ''}`);
        if (result.excluded.length) printTable(result.excluded, ['marketId', 'reason']);
      });
    }));
}

/** The caller's portfolio through the SDK: positions, redeem, merge. */
export function registerPortfolioCommands(program: Command): void {
  program.command('positions').description('your held positions valued at the latest prices (one page)')
    .option('--status <status>', "the market's status: DRAFT, ACTIVE or RESOLVED")
    .option('--market <market>', 'one market only, by id or slug')
    .option('--event <eventId>', 'one event only')
    .option('--title <text>', "markets whose name contains this (any letter case)")
    .option('--sort <field>', 'latest, current, initial or return', 'latest')
    .option('--order <order>', 'ASC or DESC', 'DESC')
    .option('--page <n>', 'page number', '1')
    .option('--limit <n>', 'rows per page, at most 100', '10')
    .addHelpText('after', examples(['pmx positions', 'pmx positions --sort return --order ASC --limit 50', 'pmx positions --status RESOLVED --json | jq .data']))
    .action(run(async (options: { status?: string; market?: string; event?: string; title?: string; sort: string; order: string; page: string; limit: string }, command: Command) => {
      const client = clientFor(command, 'trader');
      const market = options.market ? await marketIdOf(client, options.market) : undefined;
      // Enumerations go as typed, upper-cased where the API is: the server names a bad one (400).
      const params: UserPositionsParams = {
        sortBy: options.sort as UserPositionsParams['sortBy'],
        order: options.order.toUpperCase() as UserPositionsParams['order'],
        page: count('--page', options.page),
        limit: count('--limit', options.limit),
        ...(options.status ? { status: options.status.toUpperCase() as UserPositionsParams['status'] } : {}),
        ...(market ? { id: market } : {}),
        ...(options.event ? { eventId: options.event } : {}),
        ...(options.title ? { title: options.title } : {}),
      };
      const page = await client.portfolio.positions(params);
      output(!!globals(command).json, page, () => {
        printTable(page.data.map((p) => ({
          market: p.displayName ?? p.title ?? p.market_uuid, outcome: p.outcome, amount: decimal(p.amount), avgPrice: decimal(p.acquisitionPrice),
          latest: decimal(p.latest), initial: decimal(p.initial), current: decimal(p.current), return: decimal(p.return),
        })), ['market', 'outcome', 'amount', 'avgPrice', 'latest', 'initial', 'current', 'return']);
        if (page.total > 0) console.log(`rows ${page.first}-${page.last} of ${page.total}`);
      });
    }));

  registerPositionBatch(program, {
    name: 'redeem', description: 'redeem resolved markets', listed: 'redeemable', done: 'redeemed',
    list: (client) => client.portfolio.redeemable(),
    batch: (client, marketIds) => client.portfolio.redeemMany(marketIds),
    examples: ['pmx redeem --list', 'pmx redeem 6f1c…', 'pmx redeem --all --json'],
  });
  registerPositionBatch(program, {
    name: 'merge', description: 'merge complete sets (both outcomes, the smaller available balance) back into collateral', listed: 'mergeable', done: 'merged',
    list: (client) => client.portfolio.mergeable(),
    batch: (client, marketIds) => client.portfolio.mergeMany(marketIds),
    examples: ['pmx merge --list', 'pmx merge 6f1c… 0b6e…', 'pmx merge --all --json'],
  });
}
