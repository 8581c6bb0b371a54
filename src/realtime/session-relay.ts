import type { RedisFanout } from './redis-fanout.ts';
import type { RealtimeLogger } from './types.ts';

/** A cancel-on-disconnect socket's open or close, as a node without the engine reports it. */
export interface SessionChange {
  apiKey: string;
  change: 'open' | 'close';
  sessionId: string;
  resumes: string | null;
  /** The node holding the socket (null from a build before sockets named it). */
  node: string | null;
}

/**
 * Cancel-on-disconnect sockets held by a node without the matching engine, carried to the engine's
 * node over the cluster's Redis channel (as `MarketChangeRelay` carries catalogue changes). A
 * message no engine node hears is lost: an open then goes unrecorded (its orders are not guarded),
 * a close is made up for when the next engine starts, which counts every socket of a node gone as
 * dropped and keeps those of live nodes only while they are named again (src/engine/state/README.md
 * "Market makers' safety"); it then says so on `<key>-sessions#adopted`, and every node names its
 * live sockets again.
 */
export class SessionRelay {
  private readonly channel: string;
  /** Where the engine's new node says it counted every recorded socket as dropped. */
  private readonly adoptedChannel: string;
  private listener: ((message: string) => void) | undefined;

  constructor(private readonly fanout: RedisFanout, private readonly logger: RealtimeLogger) {
    this.channel = `${fanout.key}-sessions`;
    this.adoptedChannel = `${fanout.key}-sessions#adopted`;
  }

  /** On the node that took the engine, once it serves the channel: the other nodes name their live sockets again. */
  async announceAdopted(): Promise<void> {
    await this.fanout.publish(this.adoptedChannel, 'adopted');
  }

  /** On every node: `reaffirm` runs when another node took the engine. Resolves once listening. */
  async onAdopted(reaffirm: () => Promise<void>): Promise<void> {
    await this.fanout.subscribe(this.adoptedChannel, () => {
      reaffirm().catch((error: unknown) => this.logger.warn({ err: error }, 'live cancel-on-disconnect sockets could not be named again'));
    });
  }

  /** On a node without the engine. Rejects when no node runs it, so a handshake asking for the guard is refused. */
  async announce(change: SessionChange): Promise<void> {
    const receivers = await this.fanout.publish(this.channel, JSON.stringify(change));
    if (receivers === 0) throw new Error('no node runs the matching engine');
  }

  /** On the engine node: records the other nodes' sockets. Resolves once listening. */
  async serve(record: (change: SessionChange) => Promise<void>): Promise<void> {
    this.listener = (message) => {
      const change = parseChange(message);
      if (!change) return this.logger.warn({ message }, 'ignoring a malformed cancel-on-disconnect message');
      record(change).catch((error: unknown) => this.logger.warn({ err: error, apiKey: change.apiKey }, 'cannot record a cancel-on-disconnect socket change'));
    };
    await this.fanout.subscribe(this.channel, this.listener);
  }

  async stopServing(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await this.fanout.unsubscribe(this.channel, listener);
  }
}

function parseChange(message: string): SessionChange | undefined {
  try {
    const c = JSON.parse(message) as Partial<SessionChange>;
    const text = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 128;
    const optional = (v: unknown) => v === undefined || v === null || text(v);
    if (text(c.apiKey) && (c.change === 'open' || c.change === 'close') && text(c.sessionId) && (c.resumes === null || text(c.resumes)) && optional(c.node)) {
      return { apiKey: c.apiKey!, change: c.change, sessionId: c.sessionId!, resumes: c.resumes ?? null, node: c.node ?? null };
    }
  } catch {
    // not JSON: malformed
  }
  return undefined;
}
