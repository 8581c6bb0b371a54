/**
 * Several nodes settling on one chain (CHAIN=rpc; an embedded chain belongs to one node): two
 * server processes on one PostgreSQL and one Redis, one anvil mining a block a second. Only the
 * leader sends settlements; the leader is killed -9 with settlement in flight, the other node takes
 * the engine over, resumes the journaled transactions and settles every trade once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { expectBuiltAuditClean } from '../helpers/build.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { CROSSED_UNITS, crossPairs, expectSettledOnChain, tradesOf, untilEveryTradeSettled } from '../helpers/chain-settlement.ts';
import type { ProcessServer } from '../helpers/process-server.ts';
import { startRpcChain, type RpcChain } from '../helpers/rpc-chain.ts';
import { newTrader } from '../helpers/trader.ts';
import { severalNodesSkip, startSeveralNodes, type SeveralNodes } from '../helpers/several-nodes.ts';

const skip = await severalNodesSkip();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The node whose /readyz says leader, once exactly one of `candidates` does. */
async function leaderOf(candidates: ProcessServer[]): Promise<ProcessServer> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const roles = await Promise.all(candidates.map((node) => fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then((r) => (r.ok ? r.json() : undefined), () => undefined)));
    const leaders = candidates.filter((_, i) => (roles[i] as { role?: string } | undefined)?.role === 'leader');
    if (leaders.length === 1) return leaders[0]!;
    await sleep(50);
  }
  throw new Error('no single leader among the nodes');
}

/**
 * Waits, for at most a few blocks, until the settlement key has a transaction in the pool that no
 * block holds yet (its pending nonce ahead of its mined one): the moment to kill the leader.
 */
async function untilSettlementInMempool(rpc: RpcChain): Promise<boolean> {
  const settler = privateKeyToAccount(rpc.keys.settlement).address;
  for (let attempt = 0; attempt < 150; attempt++) {
    const [pending, mined] = await Promise.all(['pending', 'latest'].map((blockTag) => rpc.anvil.publicClient.getTransactionCount({ address: settler, blockTag: blockTag as 'pending' | 'latest' })));
    if (pending! > mined!) return true;
    await sleep(20);
  }
  return false;
}

describe('CHAIN=rpc with two nodes: the leader killed -9 while settlement is in flight', { skip, timeout: 10 * 60_000 }, () => {
  let rpc: RpcChain;
  let cluster: SeveralNodes;
  let nodes: ProcessServer[];

  before(async () => {
    rpc = await startRpcChain(['--block-time', '1']);
    // One after the other: the first boot makes the settlement keys operators, the second finds them so.
    cluster = await startSeveralNodes(2, { ...rpc.env, FAILOVER_TIMEOUT_MS: '2000', SIGNATURE_WORKERS: '0' });
    nodes = cluster.nodes;
  });
  after(async () => {
    await cluster?.close();
    await rpc?.anvil.stop();
  });

  it('the other node takes over and every trade is CONFIRMED on chain once, each wallet holding what the ledger says', { timeout: 5 * 60_000 }, async () => {
    const leader = await leaderOf(nodes);
    const survivor = nodes.find((node) => node !== leader)!;
    const market = (await createPublishedEvent(leader, { markets: 1 })).markets[0]!;
    const traders = await Promise.all([1, 2, 3, 4].map(() => newTrader(leader, { fund: '1000' })));

    await crossPairs(leader, market, traders);
    const sentNotMined = await untilSettlementInMempool(rpc);
    const beforeKill = (await tradesOf(leader, traders[0]!)).map((trade) => trade.status as string);
    await leader.crash();
    assert.ok(sentNotMined, 'a settlement transaction was sent and not yet mined at the kill');
    assert.ok(beforeKill.some((status) => status !== 'CONFIRMED'), `settlement was in flight at the kill (${beforeKill.join(', ')})`);

    assert.equal(await leaderOf([survivor]), survivor, 'the other node took the engine over');
    await untilEveryTradeSettled(survivor, traders, 120_000);
    await expectSettledOnChain(survivor, rpc.anvil.publicClient, market, traders);
    const trades = new Map((await Promise.all(traders.map((trader) => tradesOf(survivor, trader)))).flat().map((trade) => [trade.id as string, Number(trade.size)]));
    assert.equal([...trades.values()].reduce((sum, size) => sum + size, 0), CROSSED_UNITS, 'every order filled once: nothing lost, nothing twice');

    await survivor.stop();
    // pmx audit on CHAIN=rpc checks the trades as settled on chain.
    expectBuiltAuditClean({ ...cluster.env });
  });
});
