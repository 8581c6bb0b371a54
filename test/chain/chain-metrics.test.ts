import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatEther, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { crossPairs, tradesOf, untilEveryTradeSettled } from '../helpers/chain-settlement.ts';
import { get, post } from '../helpers/http.ts';
import { metricSample } from '../helpers/metrics.ts';
import { startRpcChain, type RpcChain } from '../helpers/rpc-chain.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.ts';
import { expectAuditClean, newTrader } from '../helpers/trader.ts';

/**
 * What an operator watches of settlement on a chain (src/api/ops/chain-metrics.ts,
 * ops/prometheus/alerts.yml): CHAIN=rpc through a relay the test can cut, as a public chain's
 * RPC provider goes away.
 */
describe('the chain and settlement in /metrics', { skip: storeIndependent('the chain') }, () => {
  let rpc: RpcChain;
  let relay: TcpCut;
  let server: TestServer;
  /** The head and the gas price the first test's scrape saw. */
  let seenHead = 0;
  let seenGasPrice = 0;

  before(async () => {
    rpc = await startRpcChain(['--block-time', '1']);
    relay = await tcpCut('127.0.0.1', Number(new URL(rpc.anvil.rpcUrl).port));
    server = await startTestServer({ ...rpc.env, CHAIN_RPC_URL: `http://127.0.0.1:${relay.port}` });
  });
  after(async () => {
    await server?.close();
    await relay?.close();
    await rpc?.anvil.stop();
  });

  const scrape = async () => {
    const response = await get(`${server.url}/metrics`);
    assert.equal(response.status, 200);
    return String(response.body);
  };

  it("reports the chain up, its head, and the native balance of each account that pays the exchange's gas", async () => {
    const settler = privateKeyToAccount(rpc.keys.settlement).address;
    await rpc.anvil.testClient.setBalance({ address: settler, value: parseEther('0.25') });
    const head = await rpc.anvil.publicClient.getBlockNumber();
    const text = await scrape();
    assert.equal(metricSample(text, 'pmx_chain_up'), 1);
    seenHead = metricSample(text, 'pmx_chain_block_number')!;
    assert.ok(seenHead >= Number(head));
    assert.equal(metricSample(text, 'pmx_chain_gas_balance', { account: 'settlement', address: settler }), 0.25);
    for (const [account, key] of [['operator', rpc.keys.operator], ['neg-risk settlement', rpc.keys.negRiskSettlement]] as const) {
      const address = privateKeyToAccount(key).address;
      const balance = await rpc.anvil.publicClient.getBalance({ address });
      assert.equal(metricSample(text, 'pmx_chain_gas_balance', { account, address }), Number(formatEther(balance)), account);
    }
    assert.equal(metricSample(text, 'pmx_settlement_unsettled_trades'), 0);
    seenGasPrice = metricSample(text, 'pmx_chain_gas_price_gwei')!;
    assert.ok(seenGasPrice > 0 && seenGasPrice < 1_000, `${seenGasPrice} gwei`);
    assert.equal(metricSample(text, 'pmx_chain_max_fee_per_gas_gwei'), Number.POSITIVE_INFINITY, 'no cap');
  });

  it('reports the trades a silent chain leaves unsettled and how long the oldest has waited, without waiting on the chain itself, then their settlement', async () => {
    const event = await createPublishedEvent(server);
    const traders = await Promise.all([0, 1, 2, 3].map(() => newTrader(server, { fund: '100' })));
    // Every packet to the chain dropped from here: the sends wait, the scrapes must not.
    relay.stall();
    await crossPairs(server, event.markets[0]!, traders);
    await post(server.api('/admin/clock'), { advanceMs: 90_000 }, server.adminHeaders);
    const text = await scrape();
    assert.equal(metricSample(text, 'pmx_chain_up'), 0);
    assert.equal(metricSample(text, 'pmx_chain_block_number'), seenHead, 'the last head seen, while the chain does not answer');
    assert.equal(metricSample(text, 'pmx_chain_gas_balance', { account: 'settlement' }), undefined);
    assert.equal(metricSample(text, 'pmx_chain_gas_price_gwei'), seenGasPrice, 'the last price seen');
    const unsettled = metricSample(text, 'pmx_settlement_unsettled_trades')!;
    assert.ok(unsettled > 0, 'the crossed pairs wait for the chain');
    assert.equal(metricSample(text, 'pmx_settlement_oldest_unsettled_seconds'), 90, 'by the exchange clock, since the first match');

    relay.restore();
    await untilEveryTradeSettled(server, traders, 120_000);
    const settled = await scrape();
    assert.equal(metricSample(settled, 'pmx_chain_up'), 1);
    assert.equal(metricSample(settled, 'pmx_settlement_unsettled_trades'), 0);
    assert.equal(metricSample(settled, 'pmx_settlement_oldest_unsettled_seconds'), 0);
    await expectAuditClean(server);
  });

  it('shows a settlement key out of gas, whose trades wait MATCHED (none FAILED: the traders did nothing wrong) and settle once it is funded', async () => {
    const settler = privateKeyToAccount(rpc.keys.settlement).address;
    const event = await createPublishedEvent(server);
    const traders = await Promise.all([0, 1, 2, 3].map(() => newTrader(server, { fund: '100' })));
    await rpc.anvil.testClient.setBalance({ address: settler, value: 0n });
    await crossPairs(server, event.markets[0]!, traders);
    // A few blocks (one a second) for the sender to try.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const statuses = new Set((await Promise.all(traders.map((t) => tradesOf(server, t)))).flat().map((t) => t.status));
    assert.deepEqual([...statuses], ['MATCHED']);
    const text = await scrape();
    assert.equal(metricSample(text, 'pmx_chain_gas_balance', { account: 'settlement', address: settler }), 0);
    assert.ok(metricSample(text, 'pmx_settlement_unsettled_trades')! > 0);

    await rpc.anvil.testClient.setBalance({ address: settler, value: parseEther('1') });
    await untilEveryTradeSettled(server, traders, 120_000);
    assert.equal(metricSample(await scrape(), 'pmx_settlement_unsettled_trades'), 0);
    await expectAuditClean(server);
  });
});
