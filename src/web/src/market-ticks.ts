import type { ExchangeClient } from '../../client/index.ts';
import { useLoad } from './load.ts';
import { PageReads } from './page-reads.ts';

/** GET /markets answers at most this many ids a call (the API's MAX_MARKET_IDS). */
const IDS_PER_CALL = 200;

/**
 * Markets' tick sizes by market id, for rows of many markets that carry none (the portfolio's
 * positions, open orders and activity, the fills and cancels announced as notices): a price shows
 * as many decimals of a cent as its market's tick needs (format.ts centsOf). Each market is asked
 * once per page load (page-reads.ts), 200 to a GET /markets; one not answered (a failed read, a
 * market the public routes do not show) is asked again next time, its prices shown meanwhile with
 * the decimals they have. An operator's change of a tick shows after a reload.
 */
const ticks = new PageReads<string>();

/** The tick sizes of the markets `ids` that could be read, by market id. */
export function tickSizes(client: ExchangeClient, ids: readonly string[]): Promise<Map<string, string>> {
  return ticks.of(ids, (missing) => {
    const asked = new Map<string, Promise<string | undefined>>();
    for (let at = 0; at < missing.length; at += IDS_PER_CALL) {
      const chunk = missing.slice(at, at + IDS_PER_CALL);
      const answer = client.markets.list(chunk).then((markets) => new Map(markets.map((market) => [market.id, market.tickSize])), () => new Map<string, string>());
      for (const id of chunk) asked.set(id, answer.then((read) => read.get(id)));
    }
    return asked;
  });
}

const NONE: ReadonlyMap<string, string> = new Map();

/** tickSizes as a view reads them: none until they are answered, then again only when the set of markets changes. */
export function useTickSizes(client: ExchangeClient, ids: readonly string[]): ReadonlyMap<string, string> {
  const key = [...new Set(ids)].sort().join(',');
  return useLoad(() => tickSizes(client, key ? key.split(',') : []), [client, key]).data ?? NONE;
}
