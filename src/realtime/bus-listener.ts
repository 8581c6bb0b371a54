import type { DomainEventMap, DomainEventName, DomainEvents } from '../events/domain-events.ts';
import type { RealtimeLogger } from './types.ts';

/**
 * Subscribes to the bus with a listener whose failures stay here. The bus calls listeners
 * synchronously inside the publisher (the engine, after its commit), so an exception escaping
 * a socket fan-out would surface in the engine as if its own work had failed.
 */
export function listenSafely<K extends DomainEventName>(
  events: DomainEvents,
  name: K,
  logger: RealtimeLogger,
  listener: (payload: DomainEventMap[K]) => void,
): () => void {
  return events.subscribe(name, (payload) => {
    try {
      listener(payload);
    } catch (error) {
      logger.error({ err: error, event: name }, 'real-time fan-out failed');
    }
  });
}
