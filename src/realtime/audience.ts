import type { RealtimeNamespace } from './server-types.ts';

type Broadcast = ReturnType<RealtimeNamespace['to']>;

/** The broadcast to these rooms, or none when it would reach nobody. */
export type Audience = (rooms: string | string[]) => Broadcast | undefined;

/**
 * Socket.IO encodes a broadcast's payload (JSON) before it looks at its rooms, so on one node
 * every order's `order-update` for a user without a `/user` socket, and every change of a book
 * nobody watches, cost an encoding for nobody (about 3% of the engine node's CPU under batches of
 * orders). Alone, a node knows every member of its rooms and skips those emits. With a cross-node
 * adapter the other nodes' members are not known here, so every emit goes to the adapter.
 */
export function audienceOf(namespace: RealtimeNamespace, crossNode: boolean): Audience {
  if (crossNode) return (rooms) => namespace.to(rooms);
  const occupied = (room: string) => namespace.adapter.rooms.has(room);
  return (rooms) => ((typeof rooms === 'string' ? occupied(rooms) : rooms.some(occupied)) ? namespace.to(rooms) : undefined);
}
