/**
 * A market maker: quotes both sides of a market's YES token around a midpoint and requotes every
 * time one of its quotes trades, leaning the midpoint a tick toward the taker (a filled ask means
 * buyers: up; a filled bid: down). The ask is a bid for NO at 1 - ask, so it needs no inventory.
 *
 *   PMX_URL=http://127.0.0.1:3000 PMX_PRIVATE_KEY=0x… MARKET=<id or slug> node --import tsx examples/market-maker.ts
 * Optional: SIZE (default 10), SPREAD_TICKS (2), MID (the book's midpoint, else 0.5), STEPS (requotes before stopping).
 */
import { pathToFileURL } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { createClient, formatUnits, parseUnits, type ExchangeClient } from 'pmx-client';

export interface MakerOptions { market: string; size?: string; spreadTicks?: number; mid?: string; steps?: number; log?: (line: string) => void }

const ONE = 1_000_000n;
const units = (decimal: string) => parseUnits(decimal) ?? 0n;

export async function startMarketMaker(client: ExchangeClient, options: MakerOptions) {
  const market = await client.markets.get(options.market);
  const [yes, no] = [market.tokenId1!, market.tokenId2!];
  const tick = units(market.tickSize);
  const spread = BigInt(options.spreadTicks ?? 2) * tick;
  const book = await client.book.get(yes);
  const bookMid = book.bids[0] && book.asks[0] ? (units(book.bids[0].price) + units(book.asks[0].price)) / 2n : undefined;
  let mid = options.mid ? units(options.mid) : bookMid ?? ONE / 2n;
  let quotes: (string | undefined)[] = []; // [bid, ask]; undefined when the server refused one
  const open = () => quotes.filter((id): id is string => id !== undefined);
  let steps = 0;
  const fills = client.user();
  await fills.connected();

  async function requote(): Promise<void> {
    mid = (mid / tick) * tick; // on the tick, and far enough from 0 and 1 for both quotes
    if (mid < spread + tick) mid = spread + tick;
    if (mid > ONE - spread - tick) mid = ONE - spread - tick;
    if (open().length) await client.orders.cancelMany(open());
    const placed = await client.orders.placeMany([
      { tokenId: yes, side: 'BUY', price: formatUnits(mid - spread), size: options.size ?? '10' },
      { tokenId: no, side: 'BUY', price: formatUnits(ONE - mid - spread), size: options.size ?? '10' },
    ]);
    quotes = placed.map((result) => result.orderId);
    (options.log ?? console.log)(`quoting ${formatUnits(mid - spread)} / ${formatUnits(mid + spread)}`);
  }

  await requote();
  const done = (async () => {
    for await (const message of fills) {
      if (message.type !== 'order-update' || message.data.type !== 'UPDATE') continue;
      const side = quotes.indexOf(message.data.order.id);
      if (side < 0) continue;
      mid += side === 0 ? -tick : tick;
      await requote();
      if (++steps === options.steps) break;
    }
  })();
  return {
    /** Resolves once `steps` requotes are done (never without `steps`). */
    done,
    /** Cancels the quotes and closes the feed. */
    async stop() {
      fills.close();
      await done;
      if (open().length) await client.orders.cancelMany(open());
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const client = createClient({ baseUrl: process.env.PMX_URL ?? 'http://127.0.0.1:3000', account: privateKeyToAccount(process.env.PMX_PRIVATE_KEY as `0x${string}`) });
  await client.auth.signIn();
  await client.auth.createApiKey();
  const steps = process.env.STEPS ? Number(process.env.STEPS) : undefined;
  const maker = await startMarketMaker(client, { market: process.env.MARKET!, size: process.env.SIZE, spreadTicks: Number(process.env.SPREAD_TICKS ?? 2), mid: process.env.MID, steps });
  process.once('SIGINT', () => void maker.stop());
  await maker.done;
  await maker.stop();
}
