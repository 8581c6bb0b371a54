import type { ExchangeClient, UserPosition } from '../../client/index.ts';

/** The route's most positions a page. */
const PAGE = 100;
/** The most pages read for the redeem amounts: 1,000 resolved positions, ten requests on each reload of the portfolio. */
export const MAX_PAGES = 10;

/**
 * The caller's resolved positions, every page of them up to MAX_PAGES (the first page said only
 * the 100 first, so a market beyond them was offered a "Redeem" without its amount). `complete`
 * is false when more remained unread: the amounts of markets not among them are then unknown.
 * The route sorts by `latest`, what a share redeems for, so a market's two outcomes (both pay on
 * a tie) may fall on two pages: all pages are read, not only until each market is seen.
 */
export async function resolvedPositions(client: ExchangeClient): Promise<{ rows: UserPosition[]; complete: boolean }> {
  const read = (page: number) => client.portfolio.positions({ status: 'RESOLVED', limit: PAGE, page });
  const first = await read(1);
  const pages = Math.ceil(first.total / PAGE);
  const more = Math.max(0, Math.min(pages, MAX_PAGES) - 1);
  const rest = await Promise.all(Array.from({ length: more }, (_, index) => read(index + 2)));
  return { rows: [first, ...rest].flatMap((page) => page.data), complete: pages <= MAX_PAGES };
}
