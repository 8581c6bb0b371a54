import { BloomFilter } from '../core/bloom-filter.ts';

/** Hashes the first filter is sized for; a store holding more is read into a larger one next. */
const FIRST_CAPACITY = 1 << 20;
/** Stored hashes read per chunk while a filter is built (on PGlite about 15 ms of this thread each). */
const HASHES_PER_READ = 5_000;

/** One chunk of the store's order hashes after `after` (from the start without it), and where the next begins. */
export type ReadHashChunk = (limit: number, after: string | undefined) => Promise<{ hashes: string[]; next: string | undefined }>;

export interface UsedHashFilterOptions {
  readChunk: ReadHashChunk;
  /** Hashes answered but possibly not in what `readChunk` reads yet (the journal's records). */
  unprojected(): Iterable<string>;
  onError(error: unknown): void;
  firstCapacity?: number;
}

/**
 * Which order hashes the store may already hold (README.md "Admission"), so that a batch asks
 * the store only about those: a hash is used once, and nearly every new order's hash is new, so
 * without it every batch made one lookup in the store that found nothing. The filter holds every
 * hash the store held when it was built, read in the background once the engine's node is up, and
 * every hash of a batch that became durable since (`add`). Until it is built, and while a
 * larger one replaces it, every hash goes to the store as before. It answers "maybe" for about
 * 1% of new hashes, and never "no" for a stored one.
 */
export class UsedHashFilter {
  /** The filter answering, once one is built. */
  private built: BloomFilter | undefined;
  /** The filter being read from the store, which takes every `add` meanwhile as well. */
  private building: BloomFilter | undefined;
  /** Bumped by each build and by `stop`: a read that finds it changed was superseded and gives up. */
  private generation = 0;

  constructor(private readonly options: UsedHashFilterOptions) {}

  /** The hashes among these that the store may hold: all of them while no filter is built. */
  mayBeStored(hashes: string[]): string[] {
    const built = this.built;
    return built ? hashes.filter((hash) => built.mightContain(hash)) : hashes;
  }

  /** Hashes of a batch now durable. A filter that overfills is replaced by a larger one, read anew. */
  add(hashes: Iterable<string>): void {
    for (const hash of hashes) {
      this.built?.add(hash);
      this.building?.add(hash);
    }
    if (this.built?.full && !this.building) this.build(2 * this.built.size);
  }

  /** Starts reading a filter of every stored hash in the background. */
  start(): void {
    this.build(this.options.firstCapacity ?? FIRST_CAPACITY);
  }

  /** The engine stopped: another node may store orders now, so no filter answers any more. */
  stop(): void {
    this.generation++;
    this.built = undefined;
    this.building = undefined;
  }

  /** Whether a filter answers (a metric: until then every hash goes to the store). */
  get ready(): boolean {
    return this.built !== undefined;
  }

  private build(capacity: number): void {
    const generation = ++this.generation;
    const filter = new BloomFilter(capacity);
    this.building = filter;
    // Answered orders the tables may not show yet; those that become durable later come by `add`.
    for (const hash of this.options.unprojected()) filter.add(hash);
    this.read(generation, filter).catch((error: unknown) => {
      if (generation !== this.generation) return;
      this.building = undefined;
      this.options.onError(error);
    });
  }

  private async read(generation: number, filter: BloomFilter): Promise<void> {
    let after: string | undefined;
    do {
      const chunk = await this.options.readChunk(HASHES_PER_READ, after);
      if (generation !== this.generation) return;
      for (const hash of chunk.hashes) filter.add(hash);
      after = chunk.next;
    } while (after !== undefined);
    this.built = filter;
    this.building = undefined;
    // Read into a filter too small for the store: read again into one sized for what it holds.
    if (filter.full) this.build(2 * filter.size);
  }
}
