import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { FencedError } from '../engine/queue-full-error.ts';
import type { Db } from '../store/database.ts';
import { checkEngineLease, readEngineLease, releaseEngineLease, renewEngineLease, takeEngineLease } from '../store/engine-leadership-repository.ts';

export type NodeRole = 'leader' | 'follower';

/** What a node does while it holds the engine: load and run it, its jobs, its relays. */
export interface LeaderDuties {
  /** Runs once the lease is taken; the node serves order commands only after it resolves. */
  begin(): Promise<void>;
  /** Runs when the lease is lost or given up; order commands already go elsewhere. */
  end(): Promise<void>;
  /** Whether the node could run the engine now (its state is whole); one that cannot does not take the lease. */
  canLead?(): boolean;
}

/**
 * Which node runs the matching engine (EXTENSIONS.md section 12). Every node is a candidate; the
 * leader serves order commands and runs the background jobs, the others pass commands to it.
 */
export interface Leadership {
  /** This process's random id: a restart, or a clone on another machine, is another node. */
  readonly nodeId: string;
  readonly role: NodeRole;
  /** Where order commands go from a follower; undefined while no live leader is known. */
  readonly leaderUrl: string | undefined;
  /** Whether this node can serve order commands now, itself or by passing them on. */
  readonly canServeCommands: boolean;
  /** How many times the engine came to this node or left it. */
  readonly changes: number;
  /** Inside an engine transaction: throws FencedError unless this node still holds the engine. */
  fence(tx: Db): Promise<void>;
  /** Whether this node holds the engine at this moment (jobs check it before each tick). */
  holds(): boolean;
  /** Begins campaigning; `url` is where other nodes reach this one. Resolves once the first round ended. */
  start(duties: LeaderDuties, url: string): Promise<void>;
  stop(): Promise<void>;
}

/** One process on its own database (PGlite, or PostgreSQL without other nodes): always the leader. */
export class SoloLeadership implements Leadership {
  readonly role = 'leader' as const;
  readonly leaderUrl = undefined;
  private duties: LeaderDuties | undefined;
  private begun = false;
  readonly changes = 0;

  constructor(readonly nodeId: string) {}

  get canServeCommands(): boolean {
    return this.begun;
  }

  holds(): boolean {
    return this.begun;
  }

  async fence(): Promise<void> {}

  async start(duties: LeaderDuties): Promise<void> {
    this.duties = duties;
    await duties.begin();
    this.begun = true;
  }

  async stop(): Promise<void> {
    if (!this.begun) return;
    this.begun = false;
    await this.duties?.end();
  }
}

export interface LeaseOptions {
  db: Db;
  /** This process's own id: a restarted process gets a new one. */
  nodeId: string;
  /** EXTENSIONS.md FAILOVER_TIMEOUT_MS: how long a silent leader keeps the engine. */
  failoverTimeoutMs: number;
  logger: FastifyBaseLogger;
}

/**
 * Leadership through the lease row of `engine_leadership` on a shared PostgreSQL. The leader
 * renews the lease several times per lease time; the others poll it and take it over once it has
 * expired, bumping the fencing token. The engine calls `fence` inside every write transaction,
 * which checks the token under a share lock of the row and fails when it moved on: a leader that
 * was paused or cut off and comes back writes nothing. Only the timer renews the lease.
 *
 * Timing (T = failoverTimeoutMs): the lease expires 0.6 T after its last renewal, candidates look
 * every 0.1 T, so a standby takes over within about 0.7 T of the leader's last sign of life, and
 * the rest of T is left for loading the books.
 *
 * The lease names its holder by the node's random id, one per process: a node restarted on the
 * same port while its predecessor drains, or a clone with the same host name, is another node and
 * waits for the lease to expire like any other (issue 38: two processes with one `host:port` took
 * the lease from each other, both answering as leader). Only the holder's own id renews it.
 */
export class LeaseLeadership implements Leadership {
  private token: bigint | undefined;
  private serving = false;
  changes = 0;
  /** performance.now() when the last successful renewal was sent. */
  private renewedAt = -Infinity;
  private knownLeaderUrl: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** One round at a time: a round still waiting on the database is never overlapped. */
  private stepping = false;
  private duties: LeaderDuties | undefined;
  private url = '';
  /** Duties start and end one at a time, in the order the lease changed. */
  private transitions: Promise<void> = Promise.resolve();
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(private readonly options: LeaseOptions) {
    this.leaseMs = Math.round(options.failoverTimeoutMs * 0.6);
    this.pollMs = Math.max(50, Math.round(options.failoverTimeoutMs / 10));
  }

  get nodeId(): string {
    return this.options.nodeId;
  }

  get role(): NodeRole {
    return this.serving && this.holds() ? 'leader' : 'follower';
  }

  /**
   * Where the engine runs when it is not here. Never this node's own URL: a node that finds a
   * lease naming its own address but not its id (a predecessor on the same port, another host
   * advertising the same URL) waits for it to expire rather than pass commands to itself or call
   * itself ready.
   */
  get leaderUrl(): string | undefined {
    if (this.token !== undefined || this.knownLeaderUrl === this.url) return undefined;
    return this.knownLeaderUrl;
  }

  get canServeCommands(): boolean {
    return this.role === 'leader' || this.leaderUrl !== undefined;
  }

  holds(): boolean {
    return this.token !== undefined && performance.now() - this.renewedAt < this.leaseMs;
  }

  async fence(tx: Db): Promise<void> {
    const token = this.token;
    if (token === undefined) throw new FencedError();
    const held = await checkEngineLease(tx, token);
    this.checked(token, held);
    if (!held) throw new FencedError();
  }

  /** For a journal append written in one statement that checks the lease itself (store/engine-journal-repository.ts). */
  statementFence(): { token: bigint; checked(held: boolean): void } {
    const token = this.token;
    if (token === undefined) throw new FencedError();
    return { token, checked: (held) => this.checked(token, held) };
  }

  async start(duties: LeaderDuties, url: string): Promise<void> {
    this.duties = duties;
    this.url = url;
    await this.step();
    await this.transitions;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const token = this.token;
    if (token !== undefined) {
      this.lose();
      await this.transitions;
      await releaseEngineLease(this.options.db, token).catch((error: unknown) => this.options.logger.warn({ err: error }, 'could not release the engine lease; it expires on its own'));
    }
    await this.transitions;
  }

  /** One round: renew, or look for a leader and take the lease when it expired. Then the next. */
  private async step(): Promise<void> {
    if (this.stepping) return;
    this.stepping = true;
    try {
      if (this.token !== undefined) await this.renew(this.options.db, this.token);
      else await this.campaign();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'engine lease: the database did not answer');
      if (this.token !== undefined && !this.holds()) this.depose('the lease could not be renewed in time');
      if (this.token === undefined) this.knownLeaderUrl = undefined;
    } finally {
      this.stepping = false;
    }
    this.schedule(this.token !== undefined ? this.pollMs * 2 : this.pollMs);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.step(), delayMs);
    this.timer.unref();
  }

  /** Renews the lease of `token`; deposed once it passed on. */
  private async renew(db: Db, token: bigint): Promise<void> {
    const sentAt = performance.now();
    const held = await renewEngineLease(db, token, this.options.nodeId);
    if (held) this.renewedAt = Math.max(this.renewedAt, sentAt);
    this.checked(token, held);
  }

  /** A renewal or a fence found the lease of `token` still held, or passed on. */
  private checked(token: bigint, held: boolean): void {
    if (!held && token === this.token) this.depose('another node took the engine over');
  }

  private async campaign(): Promise<void> {
    const sentAt = performance.now();
    const candidate = this.duties?.canLead?.() ?? true;
    const token = candidate ? await takeEngineLease(this.options.db, { id: this.options.nodeId, url: this.url }, this.leaseMs) : undefined;
    if (token !== undefined) {
      this.elect(token, sentAt);
      return;
    }
    const lease = await readEngineLease(this.options.db, this.leaseMs);
    this.knownLeaderUrl = lease.live && lease.holder !== this.options.nodeId ? lease.url ?? undefined : undefined;
  }

  private elect(token: bigint, sentAt: number): void {
    this.token = token;
    this.changes += 1;
    this.renewedAt = sentAt;
    this.knownLeaderUrl = undefined;
    this.options.logger.info({ token: token.toString() }, 'this node took the matching engine');
    this.transitions = this.transitions.then(async () => {
      if (this.token !== token) return;
      try {
        await this.duties!.begin();
        if (this.token === token) this.serving = true;
      } catch (error) {
        this.options.logger.error({ err: error }, 'starting the engine failed; giving the lease up');
        this.depose('the engine failed to start');
        await releaseEngineLease(this.options.db, token).catch(() => {});
      }
    });
  }

  private depose(reason: string): void {
    if (this.token === undefined) return;
    this.options.logger.warn({ reason }, 'this node no longer runs the matching engine');
    this.lose();
    // Learn soon where the engine went, so that commands are passed on instead of refused.
    this.schedule(this.pollMs);
  }

  /** Stops serving at once; the duties end in turn. */
  private lose(): void {
    const hadBegun = this.token !== undefined;
    this.token = undefined;
    this.serving = false;
    if (!hadBegun) return;
    this.changes += 1;
    this.transitions = this.transitions.then(() => this.duties!.end()).catch((error: unknown) => this.options.logger.error({ err: error }, 'stopping the engine failed'));
  }
}

/**
 * Whether another live node runs the engine on this database: a lease renewed within the lease
 * time (0.6 of `failoverTimeoutMs`) now, and still after a whole lease time. A crashed
 * predecessor's lease is not renewed, so it has expired by then; a live node's has been renewed.
 * A node without REDIS_URL refuses to start beside such a node (issue 38): it would keep its own
 * replay guard, rate limits, nonces and revocations, and accept what the others refuse.
 */
export async function anotherNodeRuns(db: Db, failoverTimeoutMs: number): Promise<boolean> {
  const leaseMs = Math.round(failoverTimeoutMs * 0.6);
  const deadline = performance.now() + leaseMs + Math.max(50, Math.round(failoverTimeoutMs / 10));
  while (true) {
    if (!(await readEngineLease(db, leaseMs)).live) return false;
    if (performance.now() >= deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, Math.max(50, Math.round(failoverTimeoutMs / 20))));
  }
}
