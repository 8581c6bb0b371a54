import type { SubscriptionAck, SubscriptionError } from '../contract/realtime.ts';
import { ALL_TRADE_ACTIVITY_ROOM, bookRoom, eventTradeActivityRoom, isBookRoom, isTradeActivityRoom, tokenOfBookRoom } from './rooms.ts';
import type { RealtimeNamespace, RealtimeSocket } from './server-types.ts';
import { MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CONNECTION, parseTokenIds, parseTradeActivityFilter, subscriptionError } from './subscription-requests.ts';
import type { SnapshotResult, TakeSnapshots } from './snapshot-sources.ts';
import type { RealtimeLogger } from './types.ts';

/** Whether a token is one of the exchange's books (this node's memory of them), for requests that take no snapshot. */
export type KnowsToken = (tokenId: string) => boolean;

/**
 * The client requests of the default namespace. Every handler validates the whole request before
 * it changes anything, so a refused request leaves the connection's subscriptions as they were.
 */
export function handleMarketSubscriptions(namespace: RealtimeNamespace, takeSnapshots: TakeSnapshots, knows: KnowsToken, logger: RealtimeLogger): void {
  // A handler that throws would escape into the websocket's message callback and end the process.
  const guarded = (event: string, handler: () => void): void => {
    try {
      handler();
    } catch (error) {
      logger.error({ err: error, event }, 'real-time request failed');
    }
  };
  namespace.on('connection', (socket) => {
    socket.on('orderbook-market-connect', (payload) => guarded('orderbook-market-connect', () => {
      const tokenIds = parseSubscription(socket, payload);
      if (tokenIds) takeSnapshots(tokenIds, (result) => guarded('orderbook-market-connect', () => subscribeBooks(socket, tokenIds, result)));
    }));
    socket.on('orderbook-market-disconnect', (payload) => guarded('orderbook-market-disconnect', () => unsubscribeBooks(socket, payload, knows)));
    socket.on('trade-activity-connect', (payload, ack) => guarded('trade-activity-connect', () => subscribeTradeActivity(socket, payload, ack)));
  });
}

/** The token ids of a valid `orderbook-market-connect`, or undefined once the client was told why not. */
function parseSubscription(socket: RealtimeSocket, payload: unknown): string[] | undefined {
  const parsed = parseTokenIds('orderbook-market-connect', payload, MAX_TOKENS_PER_CALL);
  if (parsed.ok) return parsed.value;
  refuse(socket, parsed.error);
  return undefined;
}

/**
 * Joins the token rooms and sends one snapshot per token, in the run that took the snapshots
 * (TakeSnapshots): the bus publishes synchronously too, so no book-change can fall between a
 * snapshot and the join (lost) or between the join and the snapshot (applied twice). The
 * snapshot is written to the socket before any later change broadcast to the room.
 */
function subscribeBooks(socket: RealtimeSocket, tokenIds: string[], result: SnapshotResult): void {
  const event = 'orderbook-market-connect';
  // Snapshots from another node arrive later: the client may have left meanwhile.
  if (socket.disconnected) return;
  if (!result.ok) {
    refuse(socket, subscriptionError(event, result.code, result.message, result.tokenIds));
    return;
  }

  const subscribed = subscribedTokens(socket);
  const added = tokenIds.filter((tokenId) => !subscribed.has(tokenId));
  if (subscribed.size + added.length > MAX_TOKENS_PER_CONNECTION) {
    const message = `at most ${MAX_TOKENS_PER_CONNECTION} tokens per connection: ${subscribed.size} subscribed, ${added.length} more asked`;
    refuse(socket, subscriptionError(event, 'VALIDATION_FAILED', message, added));
    return;
  }

  // Already subscribed tokens are answered too: asking again is how a client that saw a gap in
  // seq gets a fresh snapshot.
  for (const tokenId of tokenIds) void socket.join(bookRoom(tokenId));
  for (const snapshot of result.snapshots) socket.emit('orderbook', snapshot);
}

/**
 * Leaves the token rooms. The rules of a subscription's token ids hold (EXTENSIONS.md section 6):
 * at most 100 a call, each well formed and known, else a `subscription-error` and nothing left. A
 * token this connection follows counts as known (its market may have resolved since); one it does
 * not follow must be a token of the exchange, and is then ignored, so leaving is idempotent.
 */
function unsubscribeBooks(socket: RealtimeSocket, payload: unknown, knows: KnowsToken): void {
  const event = 'orderbook-market-disconnect';
  const parsed = parseTokenIds(event, payload, MAX_TOKENS_PER_CALL);
  if (!parsed.ok) {
    refuse(socket, parsed.error);
    return;
  }
  const subscribed = subscribedTokens(socket);
  const unknown = parsed.value.filter((tokenId) => !subscribed.has(tokenId) && !knows(tokenId));
  if (unknown.length > 0) {
    refuse(socket, subscriptionError(event, 'NOT_FOUND', 'unknown token ids', unknown));
    return;
  }
  for (const tokenId of parsed.value) void socket.leave(bookRoom(tokenId));
}

/**
 * A connection has one trade-activity filter; asking again replaces it. One filter per
 * connection also means no trade is ever sent twice to one socket.
 */
function subscribeTradeActivity(socket: RealtimeSocket, payload: unknown, ack: unknown): void {
  const answer = typeof ack === 'function' ? (ack as (answer: SubscriptionAck) => void) : () => {};
  const parsed = parseTradeActivityFilter(payload);
  if (!parsed.ok) {
    refuse(socket, parsed.error);
    answer({ ok: false, error: parsed.error });
    return;
  }
  for (const room of socket.rooms) if (isTradeActivityRoom(room)) void socket.leave(room);
  const { eventId } = parsed.value;
  void socket.join(eventId === null ? ALL_TRADE_ACTIVITY_ROOM : eventTradeActivityRoom(eventId));
  answer({ ok: true });
}

/** The socket's rooms are the one record of what it subscribed to. */
function subscribedTokens(socket: RealtimeSocket): Set<string> {
  const tokens = new Set<string>();
  for (const room of socket.rooms) if (isBookRoom(room)) tokens.add(tokenOfBookRoom(room));
  return tokens;
}

function refuse(socket: RealtimeSocket, error: SubscriptionError): void {
  socket.emit('subscription-error', error);
}
