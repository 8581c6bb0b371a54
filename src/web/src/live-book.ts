import { useEffect, useState } from 'react';
import type { BookWatcher, ExchangeClient, Market } from '../../client/index.ts';

/**
 * Live books of `tokenIds` from one SDK BookWatcher (one Socket.IO subscription for the page).
 * Changes arrive as fast as the server sends them; `frame` moves at most once per animation
 * frame, so the views that read the watcher redraw at most once per frame, from the books as
 * they are then.
 */
export function useBookWatcher(client: ExchangeClient, tokenIds: readonly string[]): { watcher: BookWatcher | undefined; frame: number } {
  const [watcher, setWatcher] = useState<BookWatcher | undefined>(undefined);
  const [frame, setFrame] = useState(0);
  // The token list's identity: a new array of the same tokens is the same watch.
  const key = tokenIds.join(',');
  useEffect(() => {
    if (!key) return;
    const current = client.watchBook(key.split(','));
    setWatcher(current);
    let pending = 0;
    const off = current.on('update', () => {
      pending ||= requestAnimationFrame(() => {
        pending = 0;
        setFrame((value) => value + 1);
      });
    });
    return () => {
      off();
      cancelAnimationFrame(pending);
      current.close();
      setWatcher(undefined);
    };
  }, [client, key]);
  return { watcher, frame };
}

/**
 * `market` on the tick its live book carries. The page reads the market once, but an operator may
 * change its tick (PATCH /admin/markets/{id}), and the server then sends each token's book again
 * as an `orderbook` snapshot with the new `tick_size`: with this, the page's prices and the
 * ticket's steps and checks follow it without a reload. The same object while the tick is the same.
 */
export function onLiveTick<M extends Market>(market: M, watcher: BookWatcher | undefined): M {
  const tickSize = market.tokenId1 ? watcher?.book(market.tokenId1)?.tickSize : undefined;
  return tickSize && tickSize !== market.tickSize ? { ...market, tickSize } : market;
}
