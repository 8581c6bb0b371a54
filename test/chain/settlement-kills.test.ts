import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, http, type PublicClient } from 'viem';
import { expectBuiltAuditClean } from '../helpers/build.ts';
import { createPublishedEvent, type PublishedMarket } from '../helpers/catalogue.ts';
import { crossPairs, expectSettledOnChain, untilEveryTradeSettled } from '../helpers/chain-settlement.ts';
import { restartedInPlaceStore } from '../helpers/database.ts';
import { startProcessServer } from '../helpers/process-server.ts';
import { startTestServer, type ApiServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader, type Trader } from '../helpers/trader.ts';

/** Anvil dumps its state every second: what was mined in the last second before a kill is lost. */
const DUMP_INTERVAL_MS = 1_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 39's kill -9 tests on CHAIN=embedded: settlement in flight when the server, or its anvil,
 * is killed. Afterwards every trade is CONFIRMED in a transaction that is on chain, and every
 * wallet holds on chain exactly what the ledger says: a fill settled twice, or lost, would show.
 */
describe('settlement survives kill -9 (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pmx-settlement-kills-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('of the anvil process: it restarts from its last dump and settlement resends what the chain lost', { timeout: 120_000 }, async () => {
    const server = await startTestServer({ CHAIN: 'embedded', DATA_DIR: join(dataDir, 'anvil-kill') });
    try {
      const { market, traders } = await fundedWorld(server);
      const chain = server.ctx.chain.embedded!;
      const pid = chain.pid;
      await crossPairs(server, market, traders);
      process.kill(pid, 'SIGKILL');
      await server.ctx.trading.engine.settle();
      assert.notEqual(chain.pid, pid, 'anvil was restarted');
      const client = createPublicClient({ transport: http(chain.url) }) as PublicClient;
      await expectSettledOnChain(server, client, market, traders);
      await expectAuditClean(server);
    } finally {
      await server.close();
    }
  });

  it('of the server: the restarted server resumes its journaled transactions and settles nothing twice', { timeout: 180_000 }, async () => {
    const store = await restartedInPlaceStore('pmx-settlement-kill-');
    const env = { ...store.env, CHAIN: 'embedded', DATA_DIR: store.env.DATA_DIR ?? join(dataDir, 'server-kill') };
    try {
      let server = await startProcessServer(env);
      const { market, traders } = await fundedWorld(server);
      await crossPairs(server, market, traders);
      await server.crash();
      server = await startProcessServer(env, server.port);
      try {
        await untilEveryTradeSettled(server, traders);
        const client = createPublicClient({ transport: http(`${server.url}/rpc`) }) as PublicClient;
        await expectSettledOnChain(server, client, market, traders);
      } finally {
        await server.stop();
      }
      expectBuiltAuditClean(env);
    } finally {
      await store.cleanup();
    }
  });
});

/** A market and four traders, funded on chain long enough ago that anvil's dump holds it. */
async function fundedWorld(server: ApiServer): Promise<{ market: PublishedMarket; traders: Trader[] }> {
  const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
  const traders = await Promise.all([1, 2, 3, 4].map(() => newTrader(server, { fund: '1000' })));
  await pause(2 * DUMP_INTERVAL_MS);
  return { market, traders };
}
