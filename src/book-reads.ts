import type { MatchingEngine } from './engine/engine.ts';
import type { OrderBookResponse } from './engine/book-view.ts';
import type { BookRelay, LastTrade } from './realtime/index.ts';

/**
 * The live books for REST (SPEC.md 4.5). Only the node that runs the matching engine holds them;
 * the other nodes of a cluster ask it through the real-time relay (src/realtime/README.md
 * "Several nodes"), and answer 503 SERVICE_UNAVAILABLE when it does not answer, never a stale book.
 */
export interface BookReads {
  /** Undefined for a token of no tradable market. */
  orderBook(tokenId: string): Promise<OrderBookResponse | undefined>;
  /** Undefined before the token's first trade. */
  lastTradePrice(tokenId: string): Promise<LastTrade | undefined>;
}

export function engineBookReads(engine: MatchingEngine): BookReads {
  return {
    orderBook: async (tokenId) => engine.orderBook(tokenId),
    lastTradePrice: async (tokenId) => engine.lastTradePrice(tokenId),
  };
}

export function relayBookReads(relay: BookRelay): BookReads {
  return {
    async orderBook(tokenId) {
      const book = await relay.fetch(tokenId);
      if (!book) return undefined;
      const { seq: _seq, ...orderBook } = book.snapshot;
      return orderBook;
    },
    lastTradePrice: async (tokenId) => (await relay.fetch(tokenId))?.lastTrade ?? undefined,
  };
}
