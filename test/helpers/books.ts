import { get } from './http.ts';
import type { ApiServer } from './server.ts';
import type { Trader } from './trader.ts';

export interface OpenOrder {
  id: string;
  tokenId: string;
  side: number;
  price: number;
  amount: number;
  matchedAmount: number;
}

/** Every open order of a user, from the API. */
export async function openOrders(trader: Trader): Promise<OpenOrder[]> {
  const rows = [];
  for (const status of ['PENDING', 'EXECUTING']) rows.push(...(await trader.call('GET', `/orders?status=${status}`)).body);
  return rows;
}

type Levels = Map<string, number>;

/** The token-1 book an independent reader rebuilds from open orders (price to 2 decimals → base units). */
export function bookFromOrders(orders: OpenOrder[], tokenId1: string): { bids: Levels; asks: Levels } {
  const bids: Levels = new Map();
  const asks: Levels = new Map();
  for (const order of orders) {
    const remaining = Math.round((order.amount - order.matchedAmount) * 1e6);
    const onToken1 = order.tokenId === tokenId1;
    const price = onToken1 ? order.price : 1 - order.price;
    const side = onToken1 === (order.side === 0) ? bids : asks;
    const key = price.toFixed(2);
    side.set(key, (side.get(key) ?? 0) + remaining);
  }
  return { bids, asks };
}

/** The token-1 book the server publishes, in the same terms as `bookFromOrders`. */
export async function publishedBook(server: ApiServer, tokenId1: string): Promise<{ bids: Levels; asks: Levels }> {
  const book = (await get(server.api(`/order-book/book?token_id=${tokenId1}`))).body;
  return { bids: levelsOf(book.bids), asks: levelsOf(book.asks) };
}

const levelsOf = (levels: { price: string; size: string }[]): Levels => new Map(levels.map((l) => [Number(l.price).toFixed(2), Math.round(Number(l.size) * 1e6)]));
