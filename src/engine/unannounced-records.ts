import { within } from '../core/within.ts';
import type { AppliedRecord } from './state/apply.ts';

/** Records a standby keeps at most for announcing again: a leader is heard within milliseconds, so these are a leader's last moments. */
const MAX_KEPT = 1_000;
/** How long a takeover waits to hear what the node before it announced last, before announcing what it did not hear of. */
const HEARD_WITHIN_MS = 1_000;

/**
 * How a standby hears which records the engine's node announced (every node's subscribers get a
 * record's events through Redis; realtime/announced-relay.ts).
 */
export interface AnnouncedRecords {
  /** Calls `heard` with the sequence of each record the engine's node announced, in order. */
  listen(heard: (seq: bigint) => void): Promise<void>;
  /** Resolves once every record announced before the call has been heard. */
  heardAll(): Promise<void>;
}

/**
 * The records a standby applied that the engine's node was not heard announcing yet (README.md
 * "Standbys"). A leader that dies after a record is durable and before its events reach the other
 * nodes took them with it; the node that takes over announces them again, so a subscriber on a
 * node that stayed up misses nothing: at least once, since the last record may have been
 * announced in part.
 */
export class UnannouncedRecords {
  private readonly kept: AppliedRecord[] = [];
  private heardSeq = 0n;
  private listening: Promise<void> | undefined;

  constructor(private readonly announced: AnnouncedRecords) {}

  /** Listens for the engine node's announcements (from the first call on). */
  listen(): Promise<void> {
    this.listening ??= this.announced.listen((seq) => this.heard(seq));
    return this.listening;
  }

  /** Following starts at `seq`: the records up to it are not this standby's to announce. */
  reset(seq: bigint): void {
    this.kept.length = 0;
    if (seq > this.heardSeq) this.heardSeq = seq;
  }

  /** The standby applied `record`. */
  applied(record: AppliedRecord): void {
    if (record.changes.seq <= this.heardSeq) return;
    this.kept.push(record);
    if (this.kept.length > MAX_KEPT) this.kept.shift();
  }

  /** The records applied and not heard announced, once what the node before announced has been heard (or a second has passed). */
  async takeOver(): Promise<AppliedRecord[]> {
    await within(this.announced.heardAll().catch(() => {}), HEARD_WITHIN_MS, () => {});
    // What is kept is never heard: `applied` keeps only records after the last heard, `heard` drops the ones it reaches.
    return this.kept.splice(0);
  }

  private heard(seq: bigint): void {
    if (seq <= this.heardSeq) return;
    this.heardSeq = seq;
    let heard = 0;
    while (heard < this.kept.length && this.kept[heard]!.changes.seq <= seq) heard += 1;
    this.kept.splice(0, heard);
  }
}
