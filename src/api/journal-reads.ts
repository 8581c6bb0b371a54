import { AppError } from '../contract/errors.ts';
import { within } from '../core/within.ts';
import type { TypedApp } from './typed-app.ts';

/** The longest a read waits for the tables (then 503 with Retry-After: they are behind the journal). */
const MAX_WAIT_MS = 5_000;

/**
 * What a read must see of the engine's journal before it runs (docs/engine.md "What a reader
 * sees"; EXTENSIONS.md section 12, read your writes):
 * - `caller`: every durable record that touched the caller's account (its orders, trades and
 *   balances, a maker's fills included), and only those: the default of authenticated routes;
 * - `all`: every record durable when the request arrived (market data everyone's trades make):
 *   the default of public routes;
 * - `none`: nothing (engine commands, which the engine answers itself, and reads of no engine data).
 */
export type JournalReads = 'caller' | 'all' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    journalReads?: JournalReads;
  }
}

export interface JournalReadsEngine {
  caughtUp(): Promise<void>;
  tablesHold(account: string): Promise<void>;
  tablesHoldAll(): Promise<void>;
}

/**
 * The wait runs once the caller is known (after authentication), before the handler. Engine
 * commands never wait: the engine reads through the records the tables lack itself.
 */
export function registerJournalReads(api: TypedApp, engine: JournalReadsEngine): void {
  api.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    if (config.engineCommand) return;
    const mode = config.journalReads ?? (request.caller ? 'caller' : 'all');
    if (mode === 'none') return;
    const caller = request.caller;
    await withinBound((async () => {
      await engine.caughtUp();
      if (mode === 'all') await engine.tablesHoldAll();
      else if (caller) await engine.tablesHold(caller.proxyWallet.toLowerCase());
    })());
  });
}

async function withinBound(wait: Promise<void>): Promise<void> {
  await within(wait, MAX_WAIT_MS, () => {
    throw new AppError('SERVICE_UNAVAILABLE', 'the tables are behind the engine journal; retry shortly');
  });
}
