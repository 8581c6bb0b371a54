import type { Command } from 'commander';
import type { Activity, PriceHistoryParams, Trade, TradeActivity } from '../client/index.ts';
import { examples, output, printJson, printTable } from './output.ts';
import { decimal, marketNames, shortAddress, sideName } from './people.ts';
import { address, clientFor, count, globals, run } from './sdk-client.ts';
import { marketIdOf, tokenIdOf } from './refs.ts';

/** Rows of an async iterator, at most `max` of them. */
async function take<T>(items: AsyncIterable<T>, max: number): Promise<T[]> {
  const rows: T[] = [];
  if (max <= 0) return rows;
  for await (const item of items) {
    rows.push(item);
    if (rows.length >= max) break;
  }
  return rows;
}

const secondsIso = (seconds: number) => new Date(seconds * 1000).toISOString();
const microsIso = (micros: number) => new Date(Math.floor(micros / 1000)).toISOString();

type Names = ReturnType<typeof marketNames>;

const tradeRows = (trades: Trade[], names: Names) => Promise.all(trades.map(async (t) => ({
  time: secondsIso(t.matchedAt), market: await names.name(t.market), outcome: await names.outcome(t.market, { tokenId: t.tokenId }),
  side: sideName(t.side), price: decimal(t.price), size: decimal(t.size), status: t.status,
})));
/** A trade of the tape as people read it: who, BUY/SELL, how much of which outcome, at what price, where. */
const activityRow = async (a: TradeActivity, names: Names) => ({
  time: microsIso(a.matchedAt),
  trader: a.displayName ?? (a.anonymous ? 'Anonymous' : '(no display name)'),
  side: a.side === 'bought' ? 'BUY' : 'SELL',
  size: decimal(a.size),
  outcome: await names.outcome(a.marketId, { side: a.outcome }),
  price: decimal(a.price),
  market: a.marketDisplayName ?? a.marketName ?? (await names.name(a.marketId)),
});
const activityLine = async (a: TradeActivity, names: Names) => {
  const row = await activityRow(a, names);
  return `${row.time}  ${row.trader}  ${row.side} ${row.size} ${row.outcome} @ ${row.price}  ${row.market}`;
};
const ACTIVITY_COLUMNS = ['time', 'trader', 'side', 'size', 'outcome', 'price', 'market'];
const printMarketActivity = (rows: Activity[]) => printTable(rows.map((a) => ({ ...a, time: secondsIso(a.timestamp), wallet: shortAddress(a.proxy_address), amount: decimal(a.amount), price: decimal(a.price), fee: decimal(a.fee) })), ['time', 'type', 'wallet', 'amount', 'price', 'fee', 'name']);

/** Public market data through the SDK: trades, price history, market activity, holders, event positions. */
export function registerMarketDataCommands(program: Command): void {
  program.command('trades').description('recent trades, newest first; --activity for confirmed trades with trader and market, --follow to stream them')
    .option('--market <market>', 'one market only, by id or slug (raw trades)')
    .option('--user <address>', 'trades where this proxy wallet was maker or taker (raw trades)')
    .option('--activity', 'confirmed trades with trader, market and event')
    .option('--event <eventId>', 'one event only (--activity, --follow)')
    .option('--follow', 'print confirmed trades as they happen, until interrupted')
    .option('--limit <n>', 'how many rows', '20')
    .addHelpText('after', examples(['pmx trades --market 6f1c…', 'pmx trades --activity --event 0b6e… --limit 50 --json', 'pmx trades --follow']))
    .action(run(async (options: { market?: string; user?: string; activity?: boolean; event?: string; follow?: boolean; limit: string }, command: Command) => {
      const client = clientFor(command);
      const names = marketNames(client);
      const json = !!globals(command).json;
      const limit = count('--limit', options.limit);
      if (options.follow) {
        const feed = client.trades.follow(options.event ? { eventId: options.event } : {});
        process.once('SIGINT', () => feed.close());
        await feed.subscribed();
        console.error(`following the trades of ${options.event ? `event ${options.event}` : 'every market'} (Ctrl-C to stop)`);
        // One JSON object per line (for `jq`), or one aligned-enough line per trade.
        for await (const row of feed) console.log(json ? JSON.stringify(row) : await activityLine(row, names));
        return;
      }
      if (options.activity) {
        const rows = await take(client.trades.allActivity({ limit: Math.min(limit, 100), ...(options.event ? { eventId: options.event } : {}) }), limit);
        if (json) return printJson(rows);
        printTable(await Promise.all(rows.map((row) => activityRow(row, names))), ACTIVITY_COLUMNS);
        return;
      }
      const market = options.market ? await marketIdOf(client, options.market) : undefined;
      const rows = await take(client.trades.all({ limit: Math.min(limit, 500), ...(market ? { market } : {}), ...(options.user ? { user: address('--user', options.user) } : {}) }), limit);
      if (json) return printJson(rows);
      printTable(await tradeRows(rows, names), ['time', 'market', 'outcome', 'side', 'price', 'size', 'status']);
    }));

  program.command('history <token> [outcome]').description("a token's price history, one point per --fidelity minutes; the token by id, or by market (id or slug) and outcome")
    .option('--interval <interval>', '1H, 6H, 1D, 1W, 1M or ALL', '1D')
    .option('--fidelity <minutes>', 'minutes per point', '60')
    .addHelpText('after', examples(['pmx history 1234…', 'pmx history demo-btc-above-150k yes', 'pmx history 1234… --interval 1W --fidelity 1440 --json']))
    .action(run(async (token: string, outcome: string | undefined, options: { interval: string; fidelity: string }, command: Command) => {
      const tokenId = await tokenIdOf(clientFor(command), token, outcome);
      const params = { token: tokenId, interval: options.interval.toUpperCase() as PriceHistoryParams['interval'], fidelity: count('--fidelity', options.fidelity), limit: 1440 };
      const points = await take(clientFor(command).book.allHistory(params), Infinity);
      output(!!globals(command).json, points, () => printTable(points.map((p) => ({ time: secondsIso(p.t), price: decimal(p.p) })), ['time', 'price']));
    }));

  program.command('activity [market]').description("every market's trades, or one market's trades, splits, merges and redeems")
    .option('--type <type>', 'BUY or SELL (every market); SPLIT, MERGE or REDEEM (one market)')
    .option('--wallet <address>', "one party's proxy wallet (one market)")
    .option('--limit <n>', 'how many rows', '20')
    .addHelpText('after', examples(['pmx activity', 'pmx activity 6f1c… --type REDEEM --json']))
    .action(run(async (marketId: string | undefined, options: { type?: string; wallet?: string; limit: string }, command: Command) => {
      const client = clientFor(command);
      const limit = count('--limit', options.limit);
      const type = options.type?.toUpperCase();
      if (marketId) marketId = await marketIdOf(client, marketId);
      const rows = await take(marketId
        ? client.markets.allActivityOf(marketId, { limit: Math.min(limit, 100), ...(type ? { type: type as 'SPLIT' } : {}), ...(options.wallet ? { proxyAddress: address('--wallet', options.wallet) } : {}) })
        : client.markets.allActivity({ limit: Math.min(limit, 100), ...(type ? { type: type as 'BUY' } : {}) }), limit);
      output(!!globals(command).json, rows, () => printMarketActivity(rows));
    }));

  program.command('holders <market>').description('top holders of each outcome of a market (id or slug)')
    .option('--limit <n>', 'holders per outcome', '12')
    .addHelpText('after', examples(['pmx holders demo-btc-above-150k', 'pmx holders 6f1c… --limit 3 --json']))
    .action(run(async (market: string, options: { limit: string }, command: Command) => {
      const holders = await clientFor(command).markets.holders(market, { limit: count('--limit', options.limit) });
      output(!!globals(command).json, holders, () => {
        for (const outcome of [holders.outcome1, holders.outcome2]) {
          console.log(`${outcome.label}:`);
          printTable(outcome.holders.map((h) => ({ ...h, holder: h.name ?? h.walletShort ?? h.userId, shares: decimal(h.shares) })), ['rank', 'holder', 'shares']);
        }
      });
    }));

  program.command('event-positions <eventId> <userIds...>').description("1 to 50 users' positions in an event's markets")
    .addHelpText('after', examples(['pmx event-positions 0b6e… 5d1a… 9c2f… --json']))
    .action(run(async (eventId: string, userIds: string[], _options: unknown, command: Command) => {
      const positions = await clientFor(command).events.positions(eventId, userIds);
      if (globals(command).json) return printJson(positions);
      printTable(positions.flatMap((u) => u.positions.map((p) => ({ user: u.userId, ...p, market: p.title ?? p.market_uuid, amount: decimal(p.amount), current: decimal(p.current) }))), ['user', 'market', 'outcome', 'amount', 'current']);
    }));
}
