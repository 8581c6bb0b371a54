import type { ExchangeClient } from '../../client/index.ts';

/** What a profile row shows of its market: its two outcome names, first and second (its `outcome1` and `outcome2`), and its tick. */
export interface RowMarket {
  outcomes: readonly [string, string];
  tickSize: string;
}

/**
 * Public profile rows name a side only (SIDE_A, SIDE_B) and the market by title and slug; its
 * outcome names ("Yes"/"No", "Over"/"Under", a price market's "Up"/"Down") are the market's, and
 * so is the tick a row's price shows on (format.ts centsOf). Each slug is asked once per page
 * load, however many rows and profiles name it; a failed read is forgotten, to be asked again next
 * time.
 */
const known = new Map<string, Promise<RowMarket | undefined>>();

function marketOf(client: ExchangeClient, slug: string): Promise<RowMarket | undefined> {
  let market = known.get(slug);
  if (!market) {
    market = client.markets.get(slug).then(
      (read) => ({ outcomes: [read.outcome1, read.outcome2] as const, tickSize: read.tickSize }),
      () => {
        known.delete(slug);
        return undefined;
      },
    );
    known.set(slug, market);
  }
  return market;
}

/** The outcome names and tick of every market among `slugs`, read at once (one request per market not yet known). */
export async function rowMarkets(client: ExchangeClient, slugs: readonly (string | undefined)[]): Promise<Map<string, RowMarket>> {
  const distinct = [...new Set(slugs.filter((slug): slug is string => slug !== undefined))];
  const answers = await Promise.all(distinct.map(async (slug) => [slug, await marketOf(client, slug)] as const));
  return new Map(answers.filter((answer): answer is readonly [string, RowMarket] => answer[1] !== undefined));
}

/**
 * A side's outcome name in its market; a market that could not be read (or a row without a slug)
 * falls back to the side's place, "outcome 1" or "outcome 2", rather than a guessed Yes or No.
 */
export function sideName(markets: Map<string, RowMarket>, slug: string | undefined, side: 'SIDE_A' | 'SIDE_B'): string {
  const index = side === 'SIDE_A' ? 0 : 1;
  return (slug === undefined ? undefined : markets.get(slug)?.outcomes[index]) ?? `outcome ${index + 1}`;
}
