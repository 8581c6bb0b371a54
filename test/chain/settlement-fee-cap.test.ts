import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatGwei, parseGwei } from 'viem';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { crossPairs, tradesOf, untilEveryTradeSettled } from '../helpers/chain-settlement.ts';
import { get } from '../helpers/http.ts';
import { metricSample } from '../helpers/metrics.ts';
import { startRpcChain, type RpcChain } from '../helpers/rpc-chain.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader } from '../helpers/trader.ts';

/**
 * MAX_FEE_PER_GAS_GWEI on CHAIN=rpc: the operator's ceiling on what settlement pays for gas. The
 * chain (a block a second, as on a public chain) starts at a base fee of 0.1 gwei and estimates
 * the priority fee at 1 gwei, so the market asks more than the cap of 0.5 gwei, while a
 * transaction at the cap is still mined.
 */
describe('a settlement fee cap', { skip: storeIndependent('the chain') }, () => {
  const cap = parseGwei('0.5');
  let rpc: RpcChain;
  let server: TestServer;

  before(async () => {
    rpc = await startRpcChain(['--block-time', '1', '--block-base-fee-per-gas', String(parseGwei('0.1'))]);
    server = await startTestServer({ ...rpc.env, MAX_FEE_PER_GAS_GWEI: '0.5' });
  });
  after(async () => {
    await server?.close();
    await rpc?.anvil.stop();
  });

  it('signs every settlement transaction at the cap when the market asks more, and the trades settle', async () => {
    assert.ok((await rpc.anvil.publicClient.estimateFeesPerGas()).maxFeePerGas > cap, 'the market asks more than the cap');
    const event = await createPublishedEvent(server);
    const traders = await Promise.all([0, 1, 2, 3].map(() => newTrader(server, { fund: '100' })));
    await crossPairs(server, event.markets[0]!, traders);
    await untilEveryTradeSettled(server, traders);
    const hashes = new Set((await Promise.all(traders.map((t) => tradesOf(server, t)))).flat().map((t) => t.txHash as `0x${string}`));
    assert.ok(hashes.size > 0);
    for (const hash of hashes) {
      const sent = await rpc.anvil.publicClient.getTransaction({ hash });
      assert.deepEqual([sent.maxFeePerGas, sent.maxPriorityFeePerGas], [cap, cap], hash);
    }
    await expectAuditClean(server);
  });

  it('shows the cap beside the gas price in /metrics', async () => {
    // The scrape reads the gas price while it runs, and a block a second moves the base fee: it is
    // the price before the scrape or the one after it.
    const gasPrice = async () => Number(formatGwei(await rpc.anvil.publicClient.getGasPrice()));
    const before = await gasPrice();
    const text = String((await get(`${server.url}/metrics`)).body);
    const after = await gasPrice();
    assert.equal(metricSample(text, 'pmx_chain_max_fee_per_gas_gwei'), 0.5);
    assert.ok([before, after].includes(metricSample(text, 'pmx_chain_gas_price_gwei')!), `${metricSample(text, 'pmx_chain_gas_price_gwei')} is neither ${before} nor ${after}`);
  });
});
