/**
 * The load of market makers' safety for `http-orders` (BENCH_SCENARIOS=…,guarded): 100 API keys
 * with an armed heartbeat, each refreshed every timeout / 3 as the SDK does (about 30 journal
 * commands a second), and MMP on every key that places orders, with limits the run never reaches,
 * so that every fill is counted against a window and none trips (EXTENSIONS.md section 15).
 */
import type { ProcessServer } from '../test/helpers/process-server.ts';
import { hmacHeaders, setUpTrader, type BenchTrader } from './exchange-client.ts';

const ARMED_KEYS = 100;
const HEARTBEAT_TIMEOUT_MS = 10_000;

export interface MakerSafetyLoad {
  /** Stops the beats, disarms the heartbeats and removes the MMP settings. */
  stop(): Promise<void>;
}

/** A signed call whose answer is not read (DELETEs answer 204, no body). */
async function call(server: ProcessServer, trader: BenchTrader, method: string, path: string, body: unknown): Promise<void> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const response = await fetch(server.api(path), { method, headers: hmacHeaders(trader, method, `/api/v1${path}`, text), ...(body === undefined ? {} : { body: text }) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

export async function armMakerSafety(server: ProcessServer, makers: BenchTrader[], market: { id: string }): Promise<MakerSafetyLoad> {
  const others: BenchTrader[] = [];
  while (makers.length + others.length < ARMED_KEYS) {
    others.push(...(await Promise.all(Array.from({ length: Math.min(10, ARMED_KEYS - makers.length - others.length) }, () => setUpTrader(server)))));
  }
  const armed = [...makers, ...others];
  const beat = () => Promise.all(armed.map((trader) => call(server, trader, 'POST', '/heartbeat', { timeoutMs: HEARTBEAT_TIMEOUT_MS })));
  await beat();
  const scope = { marketId: market.id };
  for (const maker of makers) await call(server, maker, 'PUT', '/mmp', { scope, windowMs: 1_000, maxFills: 1_000_000, frozenMs: 0 });
  const timer = setInterval(() => { beat().catch((error: unknown) => console.error('a heartbeat failed', error)); }, HEARTBEAT_TIMEOUT_MS / 3);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(armed.map((trader) => call(server, trader, 'DELETE', '/heartbeat', undefined)));
      for (const maker of makers) await call(server, maker, 'DELETE', '/mmp', { scope });
    },
  };
}
