import type { DomainEvents } from '../events/domain-events.ts';
import type { RedisFanout } from './redis-fanout.ts';
import type { RealtimeLogger } from './types.ts';

/**
 * Which journal records the engine's node has announced, told to every node over the cluster's
 * Redis. The engine's node publishes a record's sequence after the record's events (on the same
 * connection as the room broadcasts, so whoever hears the sequence has had the events); a standby
 * hears it, and a node that takes the engine over announces the records it never heard of
 * (docs/engine.md "Standbys").
 */
export class AnnouncedRelay {
  private readonly channel: string;
  private sent: Promise<unknown> = Promise.resolve();
  /** Whether a publish failed since the last that went through: a Redis that is gone is said once, not once a record. */
  private failing = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly fanout: RedisFanout, events: DomainEvents, private readonly logger: RealtimeLogger) {
    this.channel = `${fanout.key}-engine#announced`;
    this.unsubscribe = events.subscribe('record-announced', ({ seq }) => {
      this.sent = fanout.publish(this.channel, seq.toString()).then(() => {
        this.failing = false;
      }, (error: unknown) => {
        if (!this.failing) logger.warn({ err: error, seq: seq.toString() }, 'could not tell the other nodes which records were announced; a takeover may announce them again');
        this.failing = true;
      });
    });
  }

  /** Calls `heard` with the sequence of each record announced, as it is heard. Resolves once listening. */
  listen(heard: (seq: bigint) => void): Promise<void> {
    return this.fanout.subscribe(this.channel, (message) => {
      if (!/^[0-9]{1,19}$/.test(message)) return this.logger.warn({ message }, 'ignoring a malformed record announcement');
      heard(BigInt(message));
    });
  }

  /** Resolves once every record announced before the call has been heard (one round trip on the subscribed connection). */
  heardAll(): Promise<void> {
    return this.fanout.untilSubscribed();
  }

  /** Resolves once what this node announced so far has reached Redis: the engine's node's last step before it gives the engine up. */
  async sentAll(): Promise<void> {
    await this.sent;
  }

  close(): void {
    this.unsubscribe();
  }
}
