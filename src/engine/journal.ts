import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** One batch's changes in the journal: its sequence and its record (store/engine-batch-codec.ts). */
export interface JournalRecord {
  seq: bigint;
  record: string;
}

/**
 * The engine's append-only journal, its point of durability on the embedded store
 * (README.md, "The journal"): a batch is answered once its record is appended and synced; the
 * tables follow behind. Appends come one at a time, from the engine's queue.
 */
export interface Journal {
  /** Opens the journal for the engine that starts: `records`, then appends. */
  open(): Promise<void>;
  /** Appends a record and resolves once it is durable. */
  append(entry: JournalRecord): Promise<void>;
  /** Every whole record, in order: what a restart projects beyond the tables' sequence. */
  records(): Promise<JournalRecord[]>;
  /** Forgets every record: the tables hold them all. */
  clear(): Promise<void>;
  /** Closes it when the engine stops. */
  close(): Promise<void>;
}

/**
 * A journal file beside the embedded store: one line per record (`seq` and the record, which
 * JSON keeps on one line), appended and then `fdatasync`ed, the sync off the event loop. A process
 * killed mid-append leaves a last line without its newline: that batch was never answered, and
 * `records` drops it. An append that fails is cut off again, so a batch its callers were told
 * failed never comes back at a restart.
 */
export class FileJournal implements Journal {
  private file: FileHandle | undefined;
  /** The bytes of whole records in the file. */
  private size = 0;

  constructor(private readonly path: string) {}

  async open(): Promise<void> {
    this.file ??= await open(this.path, 'a');
    this.size = (await this.file.stat()).size;
  }

  async append(entry: JournalRecord): Promise<void> {
    const line = Buffer.from(`${entry.seq} ${entry.record}\n`);
    try {
      await this.handle.write(line);
      await this.handle.datasync();
      this.size += line.length;
    } catch (error) {
      await this.handle.truncate(this.size);
      throw error;
    }
  }

  async records(): Promise<JournalRecord[]> {
    const text = await readFile(this.path, 'utf8');
    const lines = text.split('\n');
    // The part after the last newline is a record whose append never finished (or nothing).
    lines.pop();
    return lines.map(parseLine);
  }

  async clear(): Promise<void> {
    // Appends land at the end whatever the offset: the file was opened for appending.
    await this.handle.truncate(0);
    this.size = 0;
  }

  async close(): Promise<void> {
    await this.file?.close();
    this.file = undefined;
  }

  private get handle(): FileHandle {
    if (!this.file) throw new Error('the engine journal is not open');
    return this.file;
  }
}

/** The journal of a store kept in memory (`memory://`): nothing outlives the process anyway. */
export class MemoryJournal implements Journal {
  private entries: JournalRecord[] = [];

  async open(): Promise<void> {}

  async append(entry: JournalRecord): Promise<void> {
    this.entries.push(entry);
  }

  async records(): Promise<JournalRecord[]> {
    return [...this.entries];
  }

  async clear(): Promise<void> {
    this.entries = [];
  }

  async close(): Promise<void> {}
}

/**
 * The engine journals on the embedded store: in a file in PGlite's data directory, which keeps it
 * with the tables it projects into, or in memory when the store keeps nothing. On PostgreSQL,
 * which several nodes share, a batch is durable at its commit and there is no journal.
 */
export function engineJournal(store: { databaseUrl: string | undefined; dataDir: string }): { journal?: Journal } {
  if (store.databaseUrl) return {};
  return { journal: store.dataDir === 'memory://' ? new MemoryJournal() : new FileJournal(join(store.dataDir, 'pmx-engine.journal')) };
}

function parseLine(line: string, index: number): JournalRecord {
  const space = line.indexOf(' ');
  if (space <= 0) throw new Error(`engine journal line ${index + 1} is not a record`);
  return { seq: BigInt(line.slice(0, space)), record: line.slice(space + 1) };
}
