import { applyPositionEvent, EMPTY_POSITION, type PositionState } from '../core/positions/position.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import {
  addPnl, findPositions, findTokenMarkets, findTradeTerms, finishedXidHorizon, listTokenMoves, listTokenMovesOf, lockPositionCursor, readPositionCursor, hasJournalSince, setPositionCursor, upsertPositions,
  type JournalTokenMove, type PositionRow,
} from '../store/positions-repository.ts';
import { journalEvents } from './journal-events.ts';

const HOUR_MS = 3_600_000;
const key = (account: string, tokenId: string) => `${account}\u0000${tokenId}`;

/**
 * Keeps `positions` and `pnl_series` up to date from the ledger journal, in ledger order, from a
 * stored cursor (see README.md). `catchUp` is safe to call from anywhere at any time, on any node:
 * the cursor row lock makes concurrent callers take turns, and a caller that finds nothing new
 * costs two small reads and takes no lock (reads on a busy exchange must not queue on one row).
 */
export class PositionProjector {
  private running: Promise<void> | undefined;
  /** A catch-up is wanted that has not started yet. */
  private wanted = false;

  constructor(private readonly db: Db, private readonly onError: (error: unknown) => void = () => {}) {}

  /** Projects every journal transaction that has finished by now. */
  async catchUp(): Promise<void> {
    if (!(await hasJournalSince(this.db, await readPositionCursor(this.db), await finishedXidHorizon(this.db)))) return;
    await this.db.transaction().execute(async (tx) => {
      const from = await lockPositionCursor(tx);
      const to = await finishedXidHorizon(tx);
      if (to <= from) return;
      await this.project(tx, await listTokenMoves(tx, from, to), to);
      await setPositionCursor(tx, to);
    });
  }

  /**
   * Catches up in the background once the engine's projection wrote ledger transactions into the
   * tables; overlapping calls coalesce. It used to follow `trade-update`, which goes out when a
   * record is durable, before its projection: the catch-up then found nothing, and the next read
   * did the work.
   */
  listen(events: DomainEvents): () => void {
    return events.subscribe('ledger-projected', () => this.kick());
  }

  /** Waits for a background catch-up in flight or about to start (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.wanted || this.running) await (this.running ?? Promise.resolve());
  }

  /** The kicks of one synchronous run (a batch's announcements) start one catch-up, a microtask later. */
  private kick(): void {
    if (this.wanted) return;
    this.wanted = true;
    queueMicrotask(() => this.start());
  }

  /** Starts the wanted catch-up, or leaves it wanted until the one running ends. */
  private start(): void {
    if (this.running) return;
    this.wanted = false;
    // A failure here is retried by the next read's own catch-up, which reports it to its caller.
    this.running = this.catchUp().catch(this.onError).finally(() => {
      this.running = undefined;
      if (this.wanted) this.start();
    });
  }

  private async project(tx: Db, moves: JournalTokenMove[], to: bigint): Promise<void> {
    if (moves.length === 0) return;
    const markets = await findTokenMarkets(tx, [...new Set(moves.map((m) => m.tokenId))]);
    const byToken = new Map(markets.flatMap((m) => [[m.tokenId1, m], [m.tokenId2, m]] as const));
    const keys = [...new Map(moves.map((m) => [key(m.account, m.tokenId), { account: m.account, tokenId: m.tokenId }])).values()];
    const stored = new Map<string, PositionRow>((await findPositions(tx, keys)).map((p) => [key(p.account, p.tokenId), p]));

    // A transaction can commit after a later-numbered one that touched the same position and was
    // projected in an earlier window. Such a position is folded again from its whole journal, in
    // sequence order, so its numbers never depend on commit timing.
    const late = new Set(moves.filter((m) => (stored.get(key(m.account, m.tokenId))?.lastSeq ?? -1n) > m.seq).map((m) => key(m.account, m.tokenId)));
    const replay = late.size === 0 ? [] : await listTokenMovesOf(tx, [...late].flatMap((k) => {
      const [account, tokenId] = k.split('\u0000') as [string, string];
      const market = byToken.get(tokenId);
      return market ? [{ account, tokenId: market.tokenId1 }, { account, tokenId: market.tokenId2 }] : [];
    }), to);
    const tradeIds = [...new Set([...moves, ...replay].filter((m) => m.kind.startsWith('TRADE_')).map((m) => m.ref))];
    const trades = new Map((await findTradeTerms(tx, tradeIds)).map((t) => [t.id, t]));
    const lookups = { market: (t: string) => byToken.get(t), trade: (id: string) => trades.get(id) };

    const positions = new Map([...stored].filter(([k]) => !late.has(k)));
    const pnl = new Map<string, { account: string; hour: Date; realizedPnl: bigint }>();
    const record = (account: string, at: Date, made: bigint) => {
      if (made === 0n) return;
      const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
      const bucket = `${account}\u0000${hour.getTime()}`;
      const sum = pnl.get(bucket) ?? { account, hour, realizedPnl: 0n };
      sum.realizedPnl += made;
      pnl.set(bucket, sum);
    };
    const apply = (source: JournalTokenMove[], wanted: (k: string) => boolean, onMade: typeof record) => {
      for (const group of bySeq(source)) {
        for (const e of journalEvents(group, lookups)) {
          const k = key(e.account, e.tokenId);
          if (!wanted(k)) continue;
          const before = positions.get(k) ?? { ...EMPTY_POSITION, account: e.account, tokenId: e.tokenId, marketId: e.marketId, outcomeIndex: e.outcomeIndex, lastSeq: 0n, updatedAt: e.at };
          const after: PositionState = applyPositionEvent(before, e.event);
          positions.set(k, { ...before, ...after, lastSeq: e.seq, updatedAt: e.at });
          onMade(e.account, e.at, after.realizedPnl - before.realizedPnl);
        }
      }
    };
    apply(moves, (k) => !late.has(k), record);
    apply(replay, (k) => late.has(k), () => {});
    // A refolded position's series records only what its realised P&L changed by, now.
    for (const k of late) {
      const now = positions.get(k)!;
      record(now.account, moves.at(-1)!.createdAt, now.realizedPnl - (stored.get(k)?.realizedPnl ?? 0n));
    }
    await upsertPositions(tx, [...positions.values()]);
    await addPnl(tx, [...pnl.values()]);
  }
}

function* bySeq(moves: JournalTokenMove[]): Generator<JournalTokenMove[]> {
  let start = 0;
  for (let i = 1; i <= moves.length; i++) {
    if (i === moves.length || moves[i]!.seq !== moves[start]!.seq) {
      yield moves.slice(start, i);
      start = i;
    }
  }
}
