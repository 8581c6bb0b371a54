import { applyPositionEvent, EMPTY_POSITION, type PositionState } from '../core/positions/position.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { Db } from '../store/database.ts';
import {
  addPnl, findPositions, findTokenMarkets, findTradeTerms, finishedXidHorizon, listTokenMoves, lockPositionCursor, setPositionCursor, upsertPositions,
  type JournalTokenMove, type PositionRow,
} from '../store/positions-repository.ts';
import { journalEvents } from './journal-events.ts';

const HOUR_MS = 3_600_000;
const key = (account: string, tokenId: string) => `${account}\u0000${tokenId}`;

/**
 * Keeps `positions` and `pnl_series` up to date from the ledger journal, in ledger order, from a
 * stored cursor (see README.md). `catchUp` is safe to call from anywhere at any time, on any node:
 * the cursor row lock makes concurrent callers take turns, and a caller that finds nothing new
 * costs one small transaction.
 */
export class PositionProjector {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly db: Db) {}

  /** Projects every journal transaction that has finished by now. */
  async catchUp(): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const from = await lockPositionCursor(tx);
      const to = await finishedXidHorizon(tx);
      if (to <= from) return;
      await this.project(tx, await listTokenMoves(tx, from, to));
      await setPositionCursor(tx, to);
    });
  }

  /** Catches up in the background after committed ledger work (trades mined); overlapping calls coalesce. */
  listen(events: DomainEvents): () => void {
    return events.subscribe('trade-update', () => this.kick());
  }

  /** Waits for a background catch-up in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // A failure here is retried by the next read's own catch-up, which reports it to its caller.
    this.running = this.catchUp().catch(() => {}).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async project(tx: Db, moves: JournalTokenMove[]): Promise<void> {
    if (moves.length === 0) return;
    const markets = await findTokenMarkets(tx, [...new Set(moves.map((m) => m.tokenId))]);
    const byToken = new Map(markets.flatMap((m) => [[m.tokenId1, m], [m.tokenId2, m]] as const));
    const tradeIds = [...new Set(moves.filter((m) => m.kind.startsWith('TRADE_')).map((m) => m.ref))];
    const trades = new Map((await findTradeTerms(tx, tradeIds)).map((t) => [t.id, t]));
    const lookups = { market: (t: string) => byToken.get(t), trade: (id: string) => trades.get(id) };

    const keys = [...new Map(moves.map((m) => [key(m.account, m.tokenId), { account: m.account, tokenId: m.tokenId }])).values()];
    const positions = new Map<string, PositionRow>((await findPositions(tx, keys)).map((p) => [key(p.account, p.tokenId), p]));
    const pnl = new Map<string, { account: string; hour: Date; realizedPnl: bigint }>();

    for (const group of bySeq(moves)) {
      for (const e of journalEvents(group, lookups)) {
        const k = key(e.account, e.tokenId);
        const before = positions.get(k) ?? { ...EMPTY_POSITION, account: e.account, tokenId: e.tokenId, marketId: e.marketId, outcomeIndex: e.outcomeIndex, lastSeq: 0n, updatedAt: e.at };
        const after: PositionState = applyPositionEvent(before, e.event);
        positions.set(k, { ...before, ...after, lastSeq: e.seq, updatedAt: e.at });
        const made = after.realizedPnl - before.realizedPnl;
        if (made === 0n) continue;
        const hour = new Date(Math.floor(e.at.getTime() / HOUR_MS) * HOUR_MS);
        const bucket = `${e.account}\u0000${hour.getTime()}`;
        const sum = pnl.get(bucket) ?? { account: e.account, hour, realizedPnl: 0n };
        sum.realizedPnl += made;
        pnl.set(bucket, sum);
      }
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
