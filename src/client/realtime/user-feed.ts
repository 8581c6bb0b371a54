import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, MmpTriggeredMessage, OrderUpdateMessage, ServerToClientEvents } from '../../contract/realtime.ts';
import type { Order } from '../types.ts';
import { MessageQueue } from './message-queue.ts';

/**
 * `client.user()`: the authenticated `/user` namespace (EXTENSIONS.md section 6) as an async
 * iterable of `order-update`, `trade-update` and `user-reward-claim-update` messages. The
 * handshake is signed afresh on every (re)connect, so reconnects after a long outage still pass
 * the server's timestamp window.
 */
export type UserMessage =
  | { type: 'order-update'; data: { type: OrderUpdateMessage['type']; order: Order; reason?: string } }
  | { type: 'trade-update'; data: Record<string, unknown> }
  | { type: 'user-reward-claim-update'; data: Record<string, unknown> }
  | { type: 'mmp-triggered'; data: MmpTriggeredMessage };

export interface UserFeedOptions {
  transports?: ('websocket' | 'polling')[];
  /**
   * Cancel on disconnect (API key only): when this socket drops and no reconnect naming it comes
   * within 2 s, the server cancels the key's open orders. Reconnects name the socket they replace.
   */
  cancelOnDisconnect?: boolean;
}

export class UserFeed implements AsyncIterable<UserMessage> {
  private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  private readonly messages = new MessageQueue<UserMessage>(() => this.close());
  /** Set when the server refused the handshake (bad or revoked credentials). */
  error: Error | undefined;

  /** The id of the last connection, which a cancel-on-disconnect reconnect names (`sessionId`). */
  private lastId: string | undefined;

  constructor(baseUrl: string, auth: () => Promise<Record<string, unknown>>, options: UserFeedOptions = {}) {
    const guard = () => (options.cancelOnDisconnect ? { cancelOnDisconnect: true, ...(this.lastId ? { sessionId: this.lastId } : {}) } : {});
    this.socket = io(`${baseUrl}/user`, {
      transports: options.transports ?? ['websocket'],
      reconnectionDelayMax: options.cancelOnDisconnect ? 1_000 : 5_000,
      auth: (cb) => { auth().then((signed) => cb({ ...signed, ...guard() }), () => cb({})); },
    });
    this.socket.on('connect', () => { this.lastId = this.socket.id; });
    this.socket.on('mmp-triggered', (data) => this.messages.push({ type: 'mmp-triggered', data }));
    this.socket.on('order-update', (data) => this.messages.push({ type: 'order-update', data: data as { type: OrderUpdateMessage['type']; order: Order; reason?: string } }));
    this.socket.on('trade-update', (data) => this.messages.push({ type: 'trade-update', data: data as Record<string, unknown> }));
    this.socket.on('user-reward-claim-update', (data) => this.messages.push({ type: 'user-reward-claim-update', data: data as Record<string, unknown> }));
    this.socket.on('connect_error', (error) => {
      // A refused handshake is final (Socket.IO does not retry it); transport errors are retried.
      if (!this.socket.active) {
        this.error = error;
        this.close();
      }
    });
  }

  /** Resolves once the namespace accepted the handshake; rejects when it refused it. */
  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', (error) => { if (!this.socket.active) reject(error); });
    });
  }

  close(): void {
    this.socket.disconnect();
    this.messages.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<UserMessage> {
    return this.messages[Symbol.asyncIterator]();
  }
}
