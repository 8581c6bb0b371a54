import type { ExchangeClient } from '../../client/index.ts';
import { PageReads } from './page-reads.ts';

/** What a profile row shows of its market: its two outcome names, first and second (its `outcome1` and `outcome2`), and its tick. */
export interface RowMarket {
  outcomes: readonly [string, string];
  tickSize: string;
}

/**
 * Public profile rows name a side only (SIDE_A, SIDE_B) and the market by title and slug; its
 * outcome names ("Yes"/"No", "Over"/"Under", a price market's "Up"/"Down") are the market's, and
 * so is the tick a row's price shows on (format.ts centsOf). Each slug is asked once per page
 * load, however many rows and profiles name it (page-reads.ts).
 */
const markets = new PageReads<RowMarket>();

/** The outcome names and tick of every market among `slugs`, read at once (one request per market not yet known). */
export function rowMarkets(client: ExchangeClient, slugs: readonly (string | undefined)[]): Promise<Map<string, RowMarket>> {
  return markets.of(slugs, (missing) => new Map(missing.map((slug) => [
    slug,
    client.markets.get(slug).then((read): RowMarket => ({ outcomes: [read.outcome1, read.outcome2], tickSize: read.tickSize }), () => undefined),
  ])));
}

/**
 * A side's outcome name in its market; a market that could not be read (or a row without a slug)
 * falls back to the side's place, "outcome 1" or "outcome 2", rather than a guessed Yes or No.
 */
export function sideName(markets: Map<string, RowMarket>, slug: string | undefined, side: 'SIDE_A' | 'SIDE_B'): string {
  const index = side === 'SIDE_A' ? 0 : 1;
  return (slug === undefined ? undefined : markets.get(slug)?.outcomes[index]) ?? `outcome ${index + 1}`;
}
