import { randomUUID } from 'node:crypto';
import { AppError } from '../contract/errors.ts';
import type { RedisFanout } from './redis-fanout.ts';
import type { BookSnapshot } from '../contract/realtime.ts';
import type { RealtimeLogger } from './types.ts';

export interface LastTrade {
  price: string;
  side: 'buy' | 'sell';
}

/** What the engine node serves to the other nodes: its books as last published, and last trade prices. */
export interface PeerBookSource {
  snapshot(tokenId: string): BookSnapshot | undefined;
  lastTradePrice(tokenId: string): LastTrade | undefined;
}

export interface PeerBook {
  snapshot: BookSnapshot;
  lastTrade: LastTrade | null;
}

export type RelayAnswer =
  | { ok: true; books: PeerBook[] }
  | { ok: false; code: 'NOT_FOUND'; message: string; tokenIds: string[] }
  | { ok: false; code: 'SERVICE_UNAVAILABLE'; message: string; tokenIds: string[] };

interface RelayRequest {
  id: string;
  replyTo: string;
  tokenIds: string[];
}

interface RelayReply {
  id: string;
  /** In request order; empty when `unknown` is not. */
  books: PeerBook[];
  unknown: string[];
}

/** How long a node waits for the engine node's answer before telling its client to try again. */
export const RELAY_TIMEOUT_MS = 3_000;

/**
 * Books for a node that does not run the matching engine, asked of the node that does over the
 * Redis connections of the Socket.IO adapter (README "Several nodes").
 *
 * Why this is consistent: the engine node takes a snapshot and publishes the reply in one
 * synchronous run, on the same Redis connection as its room broadcasts, so the reply sits in the
 * stream exactly between the broadcast of the snapshot's change (seq) and the next one (seq + 1).
 * The asking node reads its reply and the adapter's broadcasts on one subscribed connection, in
 * that order, and `ask` answers synchronously as the reply is read: a socket that joins its rooms
 * in that callback gets every change after the snapshot and none before it.
 */
export class BookRelay {
  private readonly nodeId = randomUUID();
  private readonly requestChannel: string;
  private readonly replyChannel: string;
  private readonly pending = new Map<string, { answer: (answer: RelayAnswer) => void; timer: NodeJS.Timeout }>();
  private readonly onReply = (message: string): void => this.receiveReply(message);
  private serving: ((message: string) => void) | undefined;

  private constructor(private readonly fanout: RedisFanout, private readonly logger: RealtimeLogger) {
    this.requestChannel = `${fanout.key}-books#request`;
    this.replyChannel = `${fanout.key}-books#reply#${this.nodeId}`;
  }

  /** Resolves once this node's reply channel is active. */
  static async connect(fanout: RedisFanout, logger: RealtimeLogger): Promise<BookRelay> {
    const relay = new BookRelay(fanout, logger);
    await fanout.subscribe(relay.replyChannel, relay.onReply);
    return relay;
  }

  /** On the engine node: answers the other nodes' requests from `source`. Resolves once active. */
  async serve(source: PeerBookSource): Promise<void> {
    this.serving = (message) => this.answerRequest(source, message);
    await this.fanout.subscribe(this.requestChannel, this.serving);
  }

  /** When this node stops running the engine: the next engine node answers from then on. */
  async stopServing(): Promise<void> {
    const serving = this.serving;
    this.serving = undefined;
    if (serving) await this.fanout.unsubscribe(this.requestChannel, serving);
  }

  /**
   * Asks the engine node for the books of `tokenIds` (at most a subscription's 100). `answer` runs
   * exactly once: synchronously as the reply is read from Redis, or with SERVICE_UNAVAILABLE when no
   * node serves books or none answered within RELAY_TIMEOUT_MS.
   */
  ask(tokenIds: string[], answer: (answer: RelayAnswer) => void): void {
    const id = randomUUID();
    const unavailable = (message: string) => this.settle(id, { ok: false, code: 'SERVICE_UNAVAILABLE', message, tokenIds });
    const timer = setTimeout(() => unavailable(`the node that runs the matching engine did not answer within ${RELAY_TIMEOUT_MS} ms; try again`), RELAY_TIMEOUT_MS);
    this.pending.set(id, { answer, timer });
    const request: RelayRequest = { id, replyTo: this.nodeId, tokenIds };
    this.fanout.publish(this.requestChannel, JSON.stringify(request)).then(
      (receivers) => {
        if (receivers === 0) unavailable('no node runs the matching engine at the moment; try again');
      },
      (error: unknown) => {
        this.logger.warn({ err: error }, 'cannot ask the engine node for books');
        unavailable('the node that runs the matching engine cannot be reached; try again');
      },
    );
  }

  /** One token's book and last trade, for REST: undefined for an unknown token, a 503 AppError when unavailable. */
  fetch(tokenId: string): Promise<PeerBook | undefined> {
    return new Promise((resolve, reject) => {
      this.ask([tokenId], (answer) => {
        if (answer.ok) resolve(answer.books[0]);
        else if (answer.code === 'NOT_FOUND') resolve(undefined);
        else reject(new AppError('SERVICE_UNAVAILABLE', answer.message));
      });
    });
  }

  /** Stops serving and asking; pending requests are answered SERVICE_UNAVAILABLE. */
  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.settle(id, { ok: false, code: 'SERVICE_UNAVAILABLE', message: 'this node is shutting down', tokenIds: [] });
    await this.stopServing();
    await this.fanout.unsubscribe(this.replyChannel, this.onReply);
  }

  /** Snapshot and publish in one synchronous run: the reply's place in the stream is the snapshot's state. */
  private answerRequest(source: PeerBookSource, message: string): void {
    let request: RelayRequest;
    try {
      request = JSON.parse(message) as RelayRequest;
    } catch (error) {
      this.logger.warn({ err: error }, 'ignoring a malformed book request');
      return;
    }
    const books: PeerBook[] = [];
    const unknown: string[] = [];
    for (const tokenId of request.tokenIds) {
      const snapshot = source.snapshot(tokenId);
      if (snapshot) books.push({ snapshot, lastTrade: source.lastTradePrice(tokenId) ?? null });
      else unknown.push(tokenId);
    }
    const reply: RelayReply = { id: request.id, books: unknown.length > 0 ? [] : books, unknown };
    this.fanout.publish(`${this.fanout.key}-books#reply#${request.replyTo}`, JSON.stringify(reply)).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'cannot answer a book request');
    });
  }

  private receiveReply(message: string): void {
    let reply: RelayReply;
    try {
      reply = JSON.parse(message) as RelayReply;
    } catch (error) {
      this.logger.warn({ err: error }, 'ignoring a malformed book reply');
      return;
    }
    if (reply.unknown.length > 0) this.settle(reply.id, { ok: false, code: 'NOT_FOUND', message: 'unknown token ids', tokenIds: reply.unknown });
    else this.settle(reply.id, { ok: true, books: reply.books });
  }

  /** The first outcome of a request wins; a reply after its timeout is dropped. */
  private settle(id: string, answer: RelayAnswer): void {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    clearTimeout(request.timer);
    request.answer(answer);
  }
}
