/** A minimal typed listener registry (no node:events, so the SDK also runs in browsers). */
export class Listeners<Events extends Record<string, (...args: any[]) => void>> {
  private readonly byEvent = new Map<keyof Events, Set<Events[keyof Events]>>();

  on<E extends keyof Events>(event: E, listener: Events[E]): () => void {
    let set = this.byEvent.get(event);
    if (!set) this.byEvent.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    for (const listener of this.byEvent.get(event) ?? []) listener(...args);
  }
}
