import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
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

  it('of the anvil process, restarted on another port as its own was taken: settlement follows it there', { timeout: 120_000 }, async () => {
    const server = await startTestServer({ CHAIN: 'embedded', DATA_DIR: join(dataDir, 'anvil-moved') });
    let blocker: Server | undefined;
    try {
      const { market, traders } = await fundedWorld(server);
      const chain = server.ctx.chain.embedded!;
      // The first restart after a crash is immediate, and takes the old port back; the second waits 250 ms.
      const firstPid = chain.pid;
      process.kill(firstPid, 'SIGKILL');
      await until(() => chain.pid !== firstPid && chain.ready);
      const port = Number(new URL(chain.url).port);
      await crossPairs(server, market, traders);
      const secondPid = chain.pid;
      process.kill(secondPid, 'SIGKILL');
      blocker = await occupy(port);
      await until(() => chain.pid !== secondPid && chain.ready);
      assert.notEqual(Number(new URL(chain.url).port), port, 'anvil answers on another port');
      await untilEveryTradeSettled(server, traders);
      await server.ctx.trading.engine.settle();
      const client = createPublicClient({ transport: http(chain.url) }) as PublicClient;
      await expectSettledOnChain(server, client, market, traders);
      await expectAuditClean(server);
    } finally {
      blocker?.close();
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

async function until(done: () => boolean, limitMs = 30_000): Promise<void> {
  for (const started = Date.now(); !done(); await pause(20)) {
    if (Date.now() - started > limitMs) assert.fail('the embedded chain did not restart');
  }
}

/** A listener on `port` that drops every connection, taken as soon as the killed anvil let the port go. */
async function occupy(port: number): Promise<Server> {
  for (const started = Date.now(); ; await pause(5)) {
    const server = createServer((socket) => socket.destroy());
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) return server;
    if (Date.now() - started > 2_000) assert.fail(`port ${port} was not let go`);
  }
}

/** A market and four traders, funded on chain long enough ago that anvil's dump holds it. */
async function fundedWorld(server: ApiServer): Promise<{ market: PublishedMarket; traders: Trader[] }> {
  const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
  const traders = await Promise.all([1, 2, 3, 4].map(() => newTrader(server, { fund: '1000' })));
  await pause(2 * DUMP_INTERVAL_MS);
  return { market, traders };
}
