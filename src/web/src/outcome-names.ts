import type { ExchangeClient } from '../../client/index.ts';

/** A market's two outcome names, first and second (its `outcome1` and `outcome2`). */
export type OutcomeNames = readonly [string, string];

/**
 * Public profile rows name a side only (SIDE_A, SIDE_B) and the market by title and slug; its
 * outcome names ("Yes"/"No", "Over"/"Under", a price market's "Up"/"Down") are the market's. They
 * never change, so each slug is asked once per page load, however many rows and profiles name it;
 * a failed read is forgotten, to be asked again next time.
 */
const known = new Map<string, Promise<OutcomeNames | undefined>>();

function namesOf(client: ExchangeClient, slug: string): Promise<OutcomeNames | undefined> {
  let names = known.get(slug);
  if (!names) {
    names = client.markets.get(slug).then(
      (market) => [market.outcome1, market.outcome2] as const,
      () => {
        known.delete(slug);
        return undefined;
      },
    );
    known.set(slug, names);
  }
  return names;
}

/** The outcome names of every market among `slugs`, read at once (one request per market not yet known). */
export async function outcomeNames(client: ExchangeClient, slugs: readonly (string | undefined)[]): Promise<Map<string, OutcomeNames>> {
  const distinct = [...new Set(slugs.filter((slug): slug is string => slug !== undefined))];
  const answers = await Promise.all(distinct.map(async (slug) => [slug, await namesOf(client, slug)] as const));
  return new Map(answers.filter((answer): answer is readonly [string, OutcomeNames] => answer[1] !== undefined));
}

/**
 * A side's outcome name in its market; a market that could not be read (or a row without a slug)
 * falls back to the side's place, "outcome 1" or "outcome 2", rather than a guessed Yes or No.
 */
export function sideName(names: Map<string, OutcomeNames>, slug: string | undefined, side: 'SIDE_A' | 'SIDE_B'): string {
  const index = side === 'SIDE_A' ? 0 : 1;
  return (slug === undefined ? undefined : names.get(slug)?.[index]) ?? `outcome ${index + 1}`;
}
