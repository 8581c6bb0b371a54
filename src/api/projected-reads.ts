import type { TypedApp } from './typed-app.ts';

/**
 * Read your writes over the engine's journal (src/engine/README.md "What a reader sees"): a
 * request waits, before anything else, until the tables hold every order command answered before
 * it arrived. Order commands alone do not wait: the engine reads through its journal itself, and
 * making them wait would project after every batch. Without a journal nothing ever waits.
 */
export function registerProjectedReads(api: TypedApp, engine: { projected(): Promise<void> }): void {
  api.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.orderCommand) await engine.projected();
  });
}
