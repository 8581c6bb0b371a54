import assert from 'node:assert/strict';
import { post } from './http.ts';
import type { TestServer } from './server.ts';

/** The liveness of a question when its event sets none (EXTENSIONS.md section 3: 7200 s). */
const DEFAULT_LIVENESS_MS = 7_200_000;

/**
 * Resolves a market through the oracle as an operator does: an operator proposal, then the clock
 * past the dispute window (POST /admin/clock ticks the oracle, which settles and resolves it).
 */
export async function resolveMarket(server: TestServer, marketId: string, outcome: 'YES' | 'NO' | 'TIE', livenessMs = DEFAULT_LIVENESS_MS): Promise<void> {
  const proposed = await post(server.api(`/admin/markets/${marketId}/oracle/propose`), { outcome }, server.adminHeaders);
  assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
  const moved = await post(server.api('/admin/clock'), { advanceMs: livenessMs }, server.adminHeaders);
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
}

/** An account's collateral balance as the engine holds it (base units). */
export const collateralOf = (server: TestServer, account: string): bigint => server.ctx.trading.engine.reads.balances(account).collateral.balance;
