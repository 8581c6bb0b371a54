import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SubscriptionError } from '../../contract/realtime.ts';
import type { TradeActivity } from '../types.ts';
import { MessageQueue } from './message-queue.ts';

export interface TradeFeedOptions {
  /** Only this event's trades; every market's otherwise. */
  eventId?: string;
  transports?: ('websocket' | 'polling')[];
}

/**
 * `client.trades.follow()`: confirmed trades as they happen (the `trade-activity` feed of
 * EXTENSIONS.md section 6, TradeActivity rows as GET /trades/activity returns them), as an async
 * iterable. Every (re)connect subscribes again.
 */
export class TradeFeed implements AsyncIterable<TradeActivity> {
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  private readonly messages = new MessageQueue<TradeActivity>(() => this.close());
  private readonly ready: Promise<void>;
  /** Set when the server refused the filter (an event id that is not a UUID). */
  error: SubscriptionError | undefined;

  constructor(baseUrl: string, options: TradeFeedOptions = {}) {
    this.socket = io(baseUrl, { transports: options.transports ?? ['websocket'], reconnectionDelayMax: 5_000 });
    this.ready = new Promise((resolve, reject) => {
      // The server acknowledges once the subscription is in place (or says why it refused it).
      this.socket.on('connect', () => {
        this.socket.emit('trade-activity-connect', options.eventId ? { eventId: options.eventId } : {}, (answer) => {
          if (answer.ok) return resolve();
          this.error = answer.error;
          reject(new Error(`${answer.error.code}: ${answer.error.message}`));
          this.close();
        });
      });
    });
    this.ready.catch(() => {});
    this.socket.on('trade-activity', (row) => this.messages.push(row as TradeActivity));
  }

  /** Resolves once the server has the subscription (trades from then on arrive); rejects when it refused it. */
  subscribed(): Promise<void> {
    return this.ready;
  }

  close(): void {
    this.socket.disconnect();
    this.messages.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<TradeActivity> {
    return this.messages[Symbol.asyncIterator]();
  }
}
