import type { BookRelay } from './book-relay.ts';
import type { BookSnapshot } from '../contract/realtime.ts';
import type { BookSnapshotSource } from './types.ts';

export type SnapshotResult =
  | { ok: true; snapshots: BookSnapshot[] }
  | { ok: false; code: 'NOT_FOUND' | 'SERVICE_UNAVAILABLE'; message: string; tokenIds: string[] };

/**
 * Takes the snapshots of a subscription. `answer` runs once, at the moment the snapshots show:
 * a subscriber that joins its rooms inside it receives exactly the changes after them.
 */
export type TakeSnapshots = (tokenIds: string[], answer: (result: SnapshotResult) => void) => void;

/** This node's own books (it publishes their book-changes): answered at once, in the caller's run. */
export function localSnapshots(books: BookSnapshotSource): TakeSnapshots {
  return (tokenIds, answer) => {
    const snapshots: BookSnapshot[] = [];
    const unknown: string[] = [];
    for (const tokenId of tokenIds) {
      const snapshot = books.snapshot(tokenId);
      if (snapshot) snapshots.push(snapshot);
      else unknown.push(tokenId);
    }
    answer(unknown.length > 0 ? { ok: false, code: 'NOT_FOUND', message: 'unknown token ids', tokenIds: unknown } : { ok: true, snapshots });
  };
}

/** Another node's books, through the relay: answered as the reply is read, in order with the broadcasts. */
export function relaySnapshots(relay: BookRelay): TakeSnapshots {
  return (tokenIds, answer) =>
    relay.ask(tokenIds, (reply) => answer(reply.ok ? { ok: true, snapshots: reply.books.map((book) => book.snapshot) } : reply));
}

/** This node's books while it runs the engine, the engine node's through the relay otherwise. */
export function engineNodeSnapshots(books: { local: BookSnapshotSource; relay?: BookRelay | undefined; runsEngine(): boolean }): TakeSnapshots {
  const local = localSnapshots(books.local);
  const relay = books.relay ? relaySnapshots(books.relay) : undefined;
  return (tokenIds, answer) => (relay && !books.runsEngine() ? relay : local)(tokenIds, answer);
}
