/** A minimal typed listener registry (no node:events, so the SDK also runs in browsers). */
export class Listeners<Events extends Record<string, (...args: never[]) => void>> {
  private readonly byEvent = new Map<keyof Events, Set<Events[keyof Events]>>();

  on<E extends keyof Events>(event: E, listener: Events[E]): () => void {
    let set = this.byEvent.get(event);
    if (!set) {
      set = new Set();
      this.byEvent.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    for (const listener of this.byEvent.get(event) ?? []) listener(...args);
  }
}
