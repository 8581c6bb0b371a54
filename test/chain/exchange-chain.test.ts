import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { bytesToHex, encodeFunctionData, getAddress, type Address } from 'viem';
import { buildOutput } from '../../src/build-output.ts';
import { chainTemplateFiles } from '../../src/chain/index.ts';
import { domainSeparator } from '../../src/core/orders/eip712-order.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { expectError, get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const deployed = JSON.parse(readFileSync(chainTemplateFiles(buildOutput).deploymentFile, 'utf8')).contracts;

// CHAIN=none's answer is checked with the other operations routes (test/api/ops.test.ts), CHAIN=rpc's in test/chain/rpc-chain.test.ts.
describe('CHAIN=embedded: GET /exchange and the /rpc proxy', () => {
  let server: TestServer;
  const rpc = (body: unknown, headers?: Record<string, string>) => post(`${server.url}/rpc`, body, headers);
  before(async () => { server = await startTestServer({ CHAIN: 'embedded', RATE_LIMIT_PUBLIC: '60/10s' }); });
  after(async () => {
    const anvilPid = server.ctx.chain.embedded!.pid;
    await server.close();
    assert.throws(() => process.kill(anvilPid, 0), 'the server stopped its anvil');
  });

  it('reports the embedded chain, its /rpc and the deployed contracts', async () => {
    const { body } = await get(server.api('/exchange'));
    assert.deepEqual(body.chain, { kind: 'embedded', chainId: 31337, rpcUrl: `${server.url}/rpc` });
    assert.deepEqual(
      [body.eip712.verifyingContract, body.negRiskVerifyingContract, body.collateral.address, body.conditionalTokens],
      [deployed.exchange, deployed.negRiskExchange, deployed.collateral, deployed.conditionalTokens].map((address: Address) => getAddress(address)),
    );
    // What a client signs against (GET /exchange's domain) is what the deployed exchanges verify.
    const exchangeAbi = loadArtifact('PmxExchange').abi;
    for (const [verifyingContract, address] of [[body.eip712.verifyingContract, deployed.exchange], [body.negRiskVerifyingContract, deployed.negRiskExchange]]) {
      const onChain = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: address, data: encodeFunctionData({ abi: exchangeAbi, functionName: 'domainSeparator' }) }, 'latest'] });
      assert.equal(onChain.body.result, bytesToHex(domainSeparator({ ...body.eip712, chainId: body.chainId ?? body.chain.chainId, verifyingContract })));
    }
    const code = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [body.conditionalTokens, 'latest'] });
    assert.ok(code.body.result.length > 1_000);
  });

  it('passes reads through, one call or a batch', async () => {
    assert.deepEqual((await rpc({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' })).body, { jsonrpc: '2.0', id: 7, result: '0x7a69' });
    const batch = await rpc([{ jsonrpc: '2.0', id: 1, method: 'net_version' }, { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] }]);
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.body.map((answer: { id: number }) => answer.id), [1, 2]);
    assert.equal(batch.body[0].result, '31337');
    // The same proxy under /api/v1, with its allowlist.
    assert.deepEqual((await post(server.api('/rpc'), { jsonrpc: '2.0', id: 8, method: 'eth_chainId' })).body, { jsonrpc: '2.0', id: 8, result: '0x7a69' });
    assert.equal((await post(server.api('/rpc'), { jsonrpc: '2.0', id: 9, method: 'anvil_setBalance', params: [] })).body.error?.code, -32601);
  });

  it('refuses every method outside the allowlist with a JSON-RPC error, the rest of a batch still answered', async () => {
    const denied = ['anvil_setBalance', 'anvil_impersonateAccount', 'evm_mine', 'evm_snapshot', 'hardhat_setCode', 'debug_traceTransaction', 'eth_sendTransaction', 'eth_sign', 'eth_signTypedData_v4', 'personal_sign', 'eth_accounts'];
    const batch = await rpc([...denied.map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] })), { jsonrpc: '2.0', id: 99, method: 'eth_chainId' }]);
    assert.equal(batch.status, 200);
    for (const [index, method] of denied.entries()) assert.equal(batch.body[index].error?.code, -32601, method);
    assert.equal(batch.body[denied.length].result, '0x7a69');
  });

  it('refuses transactions signed by anvil\'s public development keys, and passes others on to the chain', async () => {
    const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts');
    const transfer = { chainId: 31337, type: 'eip1559' as const, to: '0x000000000000000000000000000000000000dEaD' as const, value: 1n, nonce: 0, gas: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n };
    const devKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'; // anvil's second account
    const fromDev = await privateKeyToAccount(devKey).signTransaction(transfer);
    const refused = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [fromDev] });
    assert.equal(refused.body.error?.code, -32602);
    assert.match(refused.body.error.message, /development accounts/);
    // An unfunded stranger's transaction reaches anvil, which answers it (here: no funds for gas).
    const fromStranger = await privateKeyToAccount(generatePrivateKey()).signTransaction(transfer);
    const passed = await rpc({ jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: [fromStranger] });
    assert.match(JSON.stringify(passed.body.error), /funds/i);
    assert.equal((await rpc({ jsonrpc: '2.0', id: 3, method: 'eth_sendRawTransaction', params: ['0x1234'] })).body.error?.code, -32602);
  });

  it('answers 503 while anvil restarts after a kill -9, and passes calls on again once it is back', async () => {
    const chain = server.ctx.chain.embedded!;
    const down = new Promise((resolve) => chain.once('down', resolve));
    const back = new Promise((resolve) => chain.once('ready', resolve));
    process.kill(chain.pid, 'SIGKILL');
    await down;
    expectError(await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }), 503, 'SERVICE_UNAVAILABLE');
    await back;
    assert.equal((await rpc({ jsonrpc: '2.0', id: 2, method: 'eth_chainId' })).body.result, '0x7a69');
  });

  it('bounds bodies and batches, and counts each call of a batch against the rate limit', async () => {
    expectError(await rpc({ jsonrpc: '1.0', id: 1, method: 'eth_chainId' }), 400, 'VALIDATION_FAILED');
    expectError(await rpc([]), 400, 'VALIDATION_FAILED');
    expectError(await rpc(Array.from({ length: 21 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))), 400, 'VALIDATION_FAILED');
    expectError(await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: ['x'.repeat(200_000)] }), 413);
    const twenty = Array.from({ length: 20 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }));
    let answered = 0;
    for (let round = 0; round < 4 && answered === 0; round++) {
      const response = await rpc(twenty);
      if (response.status === 429) answered = round + 1;
    }
    assert.ok(answered > 0 && answered <= 3, 'at 60 calls per 10 s, the third batch of 20 calls at the latest is refused');
  });
});
