import type { ExchangeClient, Market } from '../client/index.ts';
import { CliError } from './sdk-client.ts';

/**
 * How people name markets and tokens on the command line: a market by its id or its slug
 * (`demo-btc-above-150k`), a token by its id or by its market and an outcome (`demo-btc-above-150k
 * yes`): the outcome's label, `yes`/`no` for the first and second outcome, or 1/2.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Token ids are uint256 decimals; a slug always has a letter or a dash. */
const TOKEN_ID = /^[0-9]+$/;

/** A market's id from its id or slug (a slug costs one read). */
export async function marketIdOf(client: ExchangeClient, ref: string): Promise<string> {
  if (UUID.test(ref)) return ref;
  return (await marketOf(client, ref)).id;
}

/** The market named by id or slug; an unknown one is the server's 404 (exit 1), as `holders` answers. */
export function marketOf(client: ExchangeClient, ref: string): Promise<Market> {
  return client.markets.get(ref);
}

/** Which outcome of a market a word names: its label, yes/no, or 1/2 (case-insensitive). */
export function outcomeIndex(market: Pick<Market, 'outcome1' | 'outcome2' | 'slug'>, word: string): 1 | 2 {
  const w = word.trim().toLowerCase();
  if (w === market.outcome1.toLowerCase() || w === 'yes' || w === '1') return 1;
  if (w === market.outcome2.toLowerCase() || w === 'no' || w === '2') return 2;
  throw new CliError(`"${word}" is not an outcome of ${market.slug}: ${market.outcome1} or ${market.outcome2}`);
}

/**
 * A token id from `<tokenId>` or `<market id or slug> <outcome>`. A market without an outcome is a
 * local error that names the two outcomes.
 */
export async function tokenIdOf(client: ExchangeClient, ref: string, outcome?: string): Promise<string> {
  if (TOKEN_ID.test(ref) && outcome === undefined) return ref;
  const market = await marketOf(client, ref);
  if (outcome === undefined) throw new CliError(`name the outcome after the market: ${market.slug} ${market.outcome1.toLowerCase()} or ${market.slug} ${market.outcome2.toLowerCase()}`);
  const tokenId = outcomeIndex(market, outcome) === 1 ? market.tokenId1 : market.tokenId2;
  if (!tokenId) throw new CliError(`${market.slug} has no tokens yet: publish its event first`);
  return tokenId;
}
