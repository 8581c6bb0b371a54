/**
 * A taker bot: every PAUSE_MS it picks one of the markets, a side, and takes the best quote of its
 * first outcome (YES) for SIZE with a fill-and-kill order: buying YES at the best ask, or selling
 * YES at the best bid by buying NO at 1 - bid (so it needs collateral only, never inventory). Its
 * lines name the outcome as the market does ("Yes", "Up", a candidate).
 *
 *   PMX_URL=http://127.0.0.1:3000 PMX_PRIVATE_KEY=0x… MARKETS=<id>,<id> node --import tsx examples/taker-bot.ts
 * Optional: SIZE (default 5), ROUNDS (default: until interrupted), PAUSE_MS (1000), SIDES (e.g. BUY,SELL; default random).
 */
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { privateKeyToAccount } from 'viem/accounts';
import { createClient, formatUnits, parseUnits, type ExchangeClient, type Order } from 'pmx-client';

export interface TakerOptions { markets: string[]; size?: string; rounds?: number; pauseMs?: number; sides?: ('BUY' | 'SELL')[]; signal?: AbortSignal; log?: (line: string) => void }

const ONE = 1_000_000n;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Takes `rounds` quotes (rounds with an empty side are skipped) and answers the orders it placed. */
export async function runTakerBot(client: ExchangeClient, options: TakerOptions): Promise<Order[]> {
  const markets = await Promise.all(options.markets.map((id) => client.markets.get(id)));
  const taken: Order[] = [];
  for (let round = 0; round !== (options.rounds ?? Infinity) && !options.signal?.aborted; round++) {
    if (round > 0) {
      // An abort ends the pause at once rather than after it.
      const paused = await sleep(options.pauseMs ?? 1000, true, { signal: options.signal }).catch(() => false);
      if (!paused) break;
    }
    const market = pick(markets);
    const book = await client.book.get(market.tokenId1!);
    const side = options.sides ? options.sides[round % options.sides.length]! : pick(['BUY', 'SELL'] as const);
    const best = side === 'BUY' ? book.asks[0] : book.bids[0];
    if (!best) continue;
    const order = side === 'BUY'
      ? { tokenId: market.tokenId1!, price: best.price }
      : { tokenId: market.tokenId2!, price: formatUnits(ONE - (parseUnits(best.price) ?? 0n)) };
    const placed = await client.orders.place({ ...order, side: 'BUY', size: options.size ?? '5', type: 'FAK' });
    (options.log ?? console.log)(`${side} ${market.outcome1} ${placed.matchedAmount} @ ${best.price} in ${market.slug} (${placed.status})`);
    taken.push(placed);
  }
  return taken;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const client = createClient({ baseUrl: process.env.PMX_URL ?? 'http://127.0.0.1:3000', account: privateKeyToAccount(process.env.PMX_PRIVATE_KEY as `0x${string}`) });
  await client.auth.signIn();
  await client.auth.createApiKey();
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  await runTakerBot(client, {
    markets: (process.env.MARKETS ?? '').split(',').filter(Boolean),
    size: process.env.SIZE,
    rounds: process.env.ROUNDS ? Number(process.env.ROUNDS) : undefined,
    pauseMs: Number(process.env.PAUSE_MS ?? 1000),
    sides: process.env.SIDES?.split(',') as ('BUY' | 'SELL')[] | undefined,
    signal: stop.signal,
  });
}
