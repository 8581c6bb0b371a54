import type { Db } from '../store/database.ts';
import { findOrdersByIdempotencyKeys, findUsedHashes, type OrderRow } from '../store/orders-repository.ts';
import type { UnprojectedRecords } from './projection/unprojected-records.ts';
import { failure, type EngineFailure } from './state/apply-context.ts';
import type { EngineCommand } from './state/commands.ts';
import type { UsedHashFilter } from './used-hash-filter.ts';

/** What a place command is answered when it never reaches the journal. */
export type PlaceAnswer = { ok: true; order: OrderRow; replayed: true } | EngineFailure;

/**
 * The checks of new orders that read beyond the engine's state (README.md "Admission"): an order's
 * hash is used once, ever, and an idempotency key names one order, ever; the state holds neither
 * (a million orders' hashes are the store's to keep). They run before a command enters a record,
 * against the tables and the records the tables lack, so the journal holds only commands that its
 * replay decides alike: a place that is refused here, or answered with the order a key already
 * made, never enters it.
 */
export class Admission {
  constructor(private readonly deps: { db: Db; unprojected: UnprojectedRecords; usedHashes: UsedHashFilter }) {}

  /** Per command: undefined when it goes on to the engine, else its answer. */
  async admit(commands: readonly EngineCommand[]): Promise<(PlaceAnswer | undefined)[]> {
    const places = commands.flatMap((command) => (command.kind === 'place' ? [command.order] : []));
    if (places.length === 0) return commands.map(() => undefined);
    const { unprojected, usedHashes, db } = this.deps;
    const candidates = usedHashes.mayBeStored(places.map((p) => p.hash).filter((hash) => !unprojected.hasHash(hash)));
    const keyed = places.filter((p) => p.idempotencyKey && !unprojected.byIdempotencyKey(p.userId, p.idempotencyKey));
    const [usedInStore, keyedInStore] = await Promise.all([
      findUsedHashes(db, candidates),
      findOrdersByIdempotencyKeys(db, keyed.map((p) => ({ userId: p.userId, key: p.idempotencyKey! }))),
    ]);
    const byKey = new Map(keyedInStore.map((row) => [`${row.user_id}|${row.idempotency_key}`, row]));
    return commands.map((command) => {
      if (command.kind !== 'place') return undefined;
      const { order } = command;
      if (order.idempotencyKey) {
        const prior = unprojected.byIdempotencyKey(order.userId, order.idempotencyKey) ?? byKey.get(`${order.userId}|${order.idempotencyKey}`);
        if (prior) return prior.hash === order.hash ? { ok: true, order: prior, replayed: true } : failure('CONFLICT', 'idempotencyKey was already used for a different order');
      }
      if (unprojected.hasHash(order.hash) || usedInStore.has(order.hash)) return failure('CONFLICT', `an order with hash ${order.hash} already exists`);
      return undefined;
    });
  }
}
