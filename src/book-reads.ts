import type { EngineReads } from './engine/engine-reads.ts';
import type { OrderBookResponse } from './engine/book-view.ts';
import type { BookRelay, LastTrade } from './realtime/index.ts';

/**
 * The live books for REST (SPEC.md 4.5), as the node that runs the matching engine holds them (and
 * the engine may move between nodes, EXTENSIONS.md section 12). A standby follows the journal but
 * may trail it, so the other nodes ask the engine's node through the real-time relay
 * (src/realtime/README.md "Several nodes"), and answer 503 SERVICE_UNAVAILABLE when it does not
 * answer, never a stale book.
 */
export interface BookReads {
  /** Undefined for a token of no tradable market. */
  orderBook(tokenId: string): Promise<OrderBookResponse | undefined>;
  /** Undefined before the token's first trade. */
  lastTradePrice(tokenId: string): Promise<LastTrade | undefined>;
}

/** The engine's books while this node runs it, else the engine node's through the relay (when there is one). */
export function engineNodeBookReads(engine: EngineReads, relay: BookRelay | undefined, runsEngine: () => boolean): BookReads {
  const local = engineBookReads(engine);
  const remote = relay ? relayBookReads(relay) : undefined;
  const source = () => (remote && !runsEngine() ? remote : local);
  return {
    orderBook: (tokenId) => source().orderBook(tokenId),
    lastTradePrice: (tokenId) => source().lastTradePrice(tokenId),
  };
}

function engineBookReads(engine: EngineReads): BookReads {
  return {
    orderBook: async (tokenId) => engine.orderBook(tokenId),
    lastTradePrice: async (tokenId) => engine.lastTradePrice(tokenId),
  };
}

function relayBookReads(relay: BookRelay): BookReads {
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
