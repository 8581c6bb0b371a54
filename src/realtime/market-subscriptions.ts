import type { SubscriptionError } from './messages.ts';
import { ALL_TRADE_ACTIVITY_ROOM, bookRoom, eventTradeActivityRoom, isBookRoom, isTradeActivityRoom, tokenOfBookRoom } from './rooms.ts';
import type { RealtimeNamespace, RealtimeSocket } from './server-types.ts';
import { MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CONNECTION, parseTokenIds, parseTradeActivityFilter, subscriptionError } from './subscription-requests.ts';
import type { BookSnapshot, BookSnapshotSource, RealtimeLogger } from './types.ts';

/**
 * The client requests of the default namespace. Every handler validates the whole request before
 * it changes anything, so a refused request leaves the connection's subscriptions as they were.
 */
export function handleMarketSubscriptions(namespace: RealtimeNamespace, books: BookSnapshotSource, logger: RealtimeLogger): void {
  // A handler that throws would escape into the websocket's message callback and end the process.
  const guarded = (event: string, handler: () => void): void => {
    try {
      handler();
    } catch (error) {
      logger.error({ err: error, event }, 'real-time request failed');
    }
  };
  namespace.on('connection', (socket) => {
    socket.on('orderbook-market-connect', (payload) => guarded('orderbook-market-connect', () => subscribeBooks(socket, books, payload)));
    socket.on('orderbook-market-disconnect', (payload) => guarded('orderbook-market-disconnect', () => unsubscribeBooks(socket, payload)));
    socket.on('trade-activity-connect', (payload) => guarded('trade-activity-connect', () => subscribeTradeActivity(socket, payload)));
  });
}

/**
 * Joins the token rooms and sends one snapshot per token. Snapshots, joins and sends happen in
 * one synchronous run: the bus publishes synchronously too, so no book-change can fall between a
 * snapshot and the join (lost) or between the join and the snapshot (applied twice). The
 * snapshot is written to the socket before any later change broadcast to the room.
 */
function subscribeBooks(socket: RealtimeSocket, books: BookSnapshotSource, payload: unknown): void {
  const event = 'orderbook-market-connect';
  const parsed = parseTokenIds(event, payload, MAX_TOKENS_PER_CALL);
  if (!parsed.ok) return refuse(socket, parsed.error);
  const tokenIds = parsed.value;

  const snapshots: BookSnapshot[] = [];
  const unknown: string[] = [];
  for (const tokenId of tokenIds) {
    const snapshot = books.snapshot(tokenId);
    if (snapshot) snapshots.push(snapshot);
    else unknown.push(tokenId);
  }
  if (unknown.length > 0) return refuse(socket, subscriptionError(event, 'NOT_FOUND', 'unknown token ids', unknown));

  const subscribed = subscribedTokens(socket);
  const added = tokenIds.filter((tokenId) => !subscribed.has(tokenId));
  if (subscribed.size + added.length > MAX_TOKENS_PER_CONNECTION) {
    const message = `at most ${MAX_TOKENS_PER_CONNECTION} tokens per connection: ${subscribed.size} subscribed, ${added.length} more asked`;
    return refuse(socket, subscriptionError(event, 'VALIDATION_FAILED', message, added));
  }

  // Already subscribed tokens are answered too: asking again is how a client that saw a gap in
  // seq gets a fresh snapshot.
  for (const tokenId of tokenIds) void socket.join(bookRoom(tokenId));
  for (const snapshot of snapshots) socket.emit('orderbook', snapshot);
}

/** Leaves the token rooms; ids that were not subscribed are ignored, so leaving is idempotent. */
function unsubscribeBooks(socket: RealtimeSocket, payload: unknown): void {
  const parsed = parseTokenIds('orderbook-market-disconnect', payload, MAX_TOKENS_PER_CONNECTION);
  if (!parsed.ok) return refuse(socket, parsed.error);
  for (const tokenId of parsed.value) void socket.leave(bookRoom(tokenId));
}

/**
 * A connection has one trade-activity filter; asking again replaces it. One filter per
 * connection also means no trade is ever sent twice to one socket.
 */
function subscribeTradeActivity(socket: RealtimeSocket, payload: unknown): void {
  const parsed = parseTradeActivityFilter(payload);
  if (!parsed.ok) return refuse(socket, parsed.error);
  for (const room of socket.rooms) if (isTradeActivityRoom(room)) void socket.leave(room);
  const { eventId } = parsed.value;
  void socket.join(eventId === null ? ALL_TRADE_ACTIVITY_ROOM : eventTradeActivityRoom(eventId));
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
