import type { RedisFanout } from './redis-fanout.ts';
import type { RealtimeLogger } from './types.ts';

/**
 * Catalogue changes (publish, patch) committed on a node without the matching engine, carried to
 * the node that runs it over the cluster's Redis channels, so an operator can send admin calls to
 * any node. The catalogue has committed before anything is sent, so the engine node reads the
 * markets from the database; a message that finds no engine node loses nothing, since a node that
 * takes the engine records every active market that differs from its state (reconcileMarkets).
 */
export class MarketChangeRelay {
  private readonly channel: string;
  private listener: ((message: string) => void) | undefined;

  constructor(private readonly fanout: RedisFanout, private readonly logger: RealtimeLogger) {
    this.channel = `${fanout.key}-markets#changed`;
  }

  /** On a node without the engine: tells the engine node which markets changed. */
  async announce(marketIds: string[]): Promise<void> {
    const receivers = await this.fanout.publish(this.channel, JSON.stringify(marketIds));
    if (receivers === 0) this.logger.warn({ marketIds }, 'no node runs the matching engine: it loads these market changes when it starts');
  }

  /** On the engine node: applies the other nodes' changes. Resolves once listening. */
  async serve(refresh: (marketIds: string[]) => Promise<void>): Promise<void> {
    this.listener = (message) => {
      let marketIds: unknown;
      try {
        marketIds = JSON.parse(message);
      } catch {
        marketIds = undefined;
      }
      if (!Array.isArray(marketIds) || !marketIds.every((id) => typeof id === 'string')) {
        this.logger.warn({ message }, 'ignoring a malformed market change');
        return;
      }
      refresh(marketIds).catch((error: unknown) => this.logger.error({ err: error, marketIds }, 'cannot refresh changed markets'));
    };
    await this.fanout.subscribe(this.channel, this.listener);
  }

  /** When this node stops running the engine. */
  async stopServing(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await this.fanout.unsubscribe(this.channel, listener);
  }

  async close(): Promise<void> {
    await this.stopServing();
  }
}
