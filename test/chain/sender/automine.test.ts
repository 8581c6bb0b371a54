// The settlement sender on an anvil that mines each transaction at once: batching, bisection,
// fills settled by someone else, the operator's nonce used behind the sender's back, confirmations, reorgs.
import assert from 'node:assert/strict';
import { createPublicClient, http, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { tcpCut } from '../../helpers/tcp-cut.ts';
import { chainPerFile, chainTest as test, senderOn, waitFor } from './harness.ts';
import { fills } from './settle-contract.ts';

const chain = chainPerFile();

test('fills are batched in journal order, at most maxFillsPerTx per transaction, each mined with its own log', async () => {
  const { sender, of, idsOf } = senderOn(chain.anvil, chain.contract, { maxFillsPerTx: 200, confirmations: 1 });
  await sender.start();
  const batch = fills(1000, 450);
  sender.submit(batch);
  await waitFor('450 mined', () => of('mined').length === 450);
  assert.deepEqual(idsOf('mined'), batch.map((fill) => fill.id));
  const perTx = new Map<string, number>();
  for (const event of of('mined')) perTx.set(event.txHash, (perTx.get(event.txHash) ?? 0) + 1);
  assert.deepEqual([...perTx.values()], [200, 200, 50]);
  for (const hash of perTx.keys()) {
    const receipt = await chain.anvil.publicClient.getTransactionReceipt({ hash: hash as `0x${string}` });
    assert.equal(receipt.status, 'success');
    const logIndexes = chain.contract.logIndexesOf(receipt.logs);
    for (const event of of('mined').filter((e) => e.txHash === hash)) {
      assert.equal(receipt.blockNumber, BigInt(event.blockNumber));
      assert.equal(logIndexes.get(event.fill.id), event.logIndex);
    }
  }
  // Automine: the last transaction's block has nothing on top until another block comes.
  await waitFor('the first two transactions confirmed', () => of('confirmed').length >= 400);
  assert.equal(of('confirmed').length, 400);
  await chain.anvil.testClient.mine({ blocks: 1 });
  await waitFor('all confirmed', () => of('confirmed').length === 450);
  assert.equal(sender.outstanding(), 0);
  assert.deepEqual(sender.records(), []);
  await sender.stop();
});

test('with gatherMs, a batch that is not full waits for it from the last one and takes the fills that came meanwhile; a full batch goes at once', async () => {
  let nowMs = 1_000_000;
  const { sender, of } = senderOn(chain.anvil, chain.contract, { maxFillsPerTx: 5, gatherMs: 500, now: () => nowMs });
  await sender.start();
  const batchesMined = () => [...new Set(of('mined').map((e) => e.txHash))].map((hash) => of('mined').filter((e) => e.txHash === hash).map((e) => e.fill.id));
  sender.submit(fills(7000, 1));
  await waitFor('the first fill mined at once', () => of('mined').length === 1);
  sender.submit(fills(7001, 1));
  await new Promise((resolve) => setTimeout(resolve, 100));
  sender.submit(fills(7002, 1));
  // Many steps of the loop (every 20 ms) pass while the clock stands: nothing is due.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(of('mined').length, 1);
  nowMs += 500;
  await waitFor('the gathered two mined', () => of('mined').length === 3);
  sender.submit(fills(7003, 6));
  await waitFor('a full batch mined without the clock moving', () => of('mined').length === 8);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(of('mined').length, 8);
  nowMs += 500;
  await waitFor('the last one mined', () => of('mined').length === 9);
  assert.deepEqual(batchesMined(), [['7000'], ['7001', '7002'], ['7003', '7004', '7005', '7006', '7007'], ['7008']]);
  await sender.stop();
});

test('a batch above maxGasPerTx is halved until each transaction fits', async () => {
  const maxGasPerTx = 1_500_000n;
  const { sender, of } = senderOn(chain.anvil, chain.contract, { confirmations: 0, maxGasPerTx });
  await sender.start();
  sender.submit(fills(1500, 100));
  await waitFor('100 mined', () => of('mined').length === 100);
  const hashes = [...new Set(of('mined').map((e) => e.txHash))];
  assert.ok(hashes.length >= 2);
  for (const hash of hashes) {
    const tx = await chain.anvil.publicClient.getTransaction({ hash });
    assert.ok(tx.gas <= maxGasPerTx, `gas limit ${tx.gas}`);
  }
  await sender.stop();
});

test('a batch whose calldata is above maxCalldataBytes is halved until each transaction fits', async () => {
  // settle(uint256[]): 4 bytes of selector, 64 of offset and length, 32 a fill; 1,000 bytes hold 29 fills.
  const { sender, of } = senderOn(chain.anvil, chain.contract, { confirmations: 0, maxCalldataBytes: 1_000 });
  await sender.start();
  sender.submit(fills(1700, 100));
  await waitFor('100 mined', () => of('mined').length === 100);
  const hashes = [...new Set(of('mined').map((e) => e.txHash))];
  assert.ok(hashes.length >= 4, `${hashes.length} transactions`);
  for (const hash of hashes) {
    const tx = await chain.anvil.publicClient.getTransaction({ hash });
    assert.ok((tx.input.length - 2) / 2 <= 1_000, `calldata of ${(tx.input.length - 2) / 2} bytes`);
  }
  await sender.stop();
});

test('simulation by eth_call: each transaction gets maxGasPerTx; a batch that runs out of it is halved, and a bad fill fails alone with its decoded error', async () => {
  const maxGasPerTx = 1_500_000n;
  const { sender, of, idsOf } = senderOn(chain.anvil, chain.contract, { confirmations: 0, maxGasPerTx, simulation: 'call' });
  await chain.contract.flagBad('5137');
  await sender.start();
  const batch = fills(5100, 100);
  sender.submit(batch);
  await waitFor('99 mined, 1 failed', () => of('mined').length === 99 && of('failed').length === 1);
  assert.equal(of('failed')[0]!.fill.id, '5137');
  assert.equal(of('failed')[0]!.reason.name, 'Bad');
  assert.deepEqual(idsOf('mined'), batch.map((fill) => fill.id).filter((id) => id !== '5137'));
  const hashes = [...new Set(of('mined').map((e) => e.txHash))];
  assert.ok(hashes.length >= 2, 'halved: 100 fills need more than 1.5M gas');
  for (const hash of hashes) assert.equal((await chain.anvil.publicClient.getTransaction({ hash })).gas, maxGasPerTx);
  await sender.stop();
});

test('a batch that would revert is bisected: the bad fill fails with its decoded error, the others settle in order', async () => {
  const { sender, of, idsOf } = senderOn(chain.anvil, chain.contract, { confirmations: 0 });
  await chain.contract.flagBad('2137');
  await sender.start();
  const batch = fills(2000, 200);
  sender.submit(batch);
  await waitFor('199 mined, 1 failed', () => of('mined').length === 199 && of('failed').length === 1);
  const [failed] = of('failed');
  assert.equal(failed!.fill.id, '2137');
  assert.equal(failed!.reason.name, 'Bad');
  assert.deepEqual(failed!.reason.args, [2137n]);
  assert.equal(failed!.txHash, undefined, 'failed in simulation, never sent');
  assert.deepEqual(idsOf('mined'), batch.map((fill) => fill.id).filter((id) => id !== '2137'));
  assert.equal(await chain.contract.isSettled('2137'), false);
  await waitFor('all confirmed', () => of('confirmed').length === 199);
  await sender.stop();
});

test('a fill already settled by another transaction is reported mined in that transaction, not failed or sent again', async () => {
  const { sender, of } = senderOn(chain.anvil, chain.contract, { confirmations: 0 });
  const earlier = await chain.anvil.outsiderWallet.sendTransaction(chain.contract.encode([{ id: '3001' }]));
  await sender.start();
  sender.submit(fills(3000, 3));
  await waitFor('3 confirmed', () => of('confirmed').length === 3);
  assert.equal(of('failed').length, 0);
  assert.equal(of('mined').find((e) => e.fill.id === '3001')!.txHash, earlier);
  assert.equal((await chain.contract.settledLogCounts()).get('3001'), 1);
  await sender.stop();
});

test("a transaction sent with the operator's key behind the sender's back takes its nonce: the sender moves to the next", async () => {
  const { sender, of, changes } = senderOn(chain.anvil, chain.contract, { confirmations: 0 });
  await sender.start();
  // The sender read the pending nonce at start; this uses it.
  const taken = await chain.anvil.publicClient.getTransactionCount({ address: chain.anvil.operator.address });
  await chain.anvil.operatorWallet.sendTransaction({ to: chain.anvil.outsider.address, value: 1n, nonce: taken });
  sender.submit(fills(4000, 10));
  await waitFor('10 confirmed', () => of('confirmed').length === 10);
  const refused = changes.filter((c) => c.kind === 'drop' && c.record.mined === null);
  assert.deepEqual(refused.map((c) => c.record.nonce), [taken], 'the refused transaction is forgotten');
  assert.equal(new Set(of('mined').map((e) => e.txHash)).size, 1);
  for (const id of fills(4000, 10).map((fill) => fill.id)) assert.equal(await chain.contract.isSettled(id), true);
  await sender.stop();
});

test('a reorg that drops the block of a mined transaction sends the fills back to matched, and they are mined again', async () => {
  const { sender, events, of } = senderOn(chain.anvil, chain.contract, { confirmations: 2 });
  await sender.start();
  sender.submit(fills(5000, 5));
  await waitFor('5 mined', () => of('mined').length === 5);
  const first = of('mined')[0]!;
  await chain.anvil.testClient.request({ method: 'anvil_rollback', params: [1] } as never);
  assert.equal(await chain.contract.isSettled('5000'), false);
  await waitFor('5 reorged and mined again', () => of('reorged').length === 5 && of('mined').length === 10);
  const again = of('mined')[5]!;
  assert.equal(again.blockNumber, first.blockNumber, 'the same height');
  assert.notEqual(again.blockHash, first.blockHash, 'another block');
  assert.equal(again.txHash, first.txHash, 'the same signed transaction, sent again');
  assert.deepEqual(events.filter((e) => e.fill.id === '5000').map((e) => e.type), ['mined', 'reorged', 'mined']);
  assert.equal(of('confirmed').length, 0);
  await chain.anvil.testClient.mine({ blocks: 2 });
  await waitFor('5 confirmed', () => of('confirmed').length === 5);
  assert.equal((await chain.contract.settledLogCounts()).get('5000'), 1);
  await sender.stop();
});

test('anvil_reorg replaces the block at the same height: the fills are reorged and the same transaction is mined again', async () => {
  const { sender, of } = senderOn(chain.anvil, chain.contract, { confirmations: 2 });
  await sender.start();
  sender.submit(fills(6000, 3));
  await waitFor('3 mined', () => of('mined').length === 3);
  const first = of('mined')[0]!;
  await chain.anvil.testClient.request({ method: 'anvil_reorg', params: [1, []] } as never);
  assert.equal(await chain.anvil.publicClient.getBlockNumber(), BigInt(first.blockNumber), 'the head is at the same height');
  await waitFor('3 reorged and mined again', () => of('reorged').length === 3 && of('mined').length === 6);
  assert.equal(of('mined')[3]!.txHash, first.txHash);
  assert.notEqual(of('mined')[3]!.blockHash, first.blockHash);
  await chain.anvil.testClient.mine({ blocks: 2 });
  await waitFor('3 confirmed', () => of('confirmed').length === 3);
  assert.equal((await chain.contract.settledLogCounts()).get('6000'), 1);
  await sender.stop();
});

test('a reorg deeper than the confirmations takes a confirmed transaction off the chain: it is sent again as the same transaction, the operator is told, and the transactions behind its nonce are mined', async () => {
  const told: string[] = [];
  const { sender, of, events } = senderOn(chain.anvil, chain.contract, { confirmations: 1, replaceAfterMs: 200, onError: (error) => void told.push(String(error)) });
  await sender.start();
  sender.submit(fills(8000, 2));
  await waitFor('2 mined', () => of('mined').length === 2);
  const lost = of('mined')[0]!;
  await chain.anvil.testClient.mine({ blocks: 1 });
  await waitFor('2 confirmed', () => of('confirmed').length === 2);
  // Its block and the one on it replaced by empty blocks: anvil drops the transaction.
  await chain.anvil.testClient.request({ method: 'anvil_reorg', params: [2, []] } as never);
  assert.equal(await chain.contract.isSettled('8000'), false);
  // The next transaction takes the nonce after the lost one's, so it waits behind the gap until that one is mined again.
  sender.submit(fills(8100, 2));
  await waitFor('the fills after the gap mined', () => of('mined').length === 4);
  assert.equal(await chain.contract.isSettled('8000'), true);
  const again = await chain.anvil.publicClient.getTransactionReceipt({ hash: lost.txHash });
  assert.equal(again.status, 'success');
  assert.notEqual(again.blockHash, lost.blockHash, 'mined again, in another block');
  assert.equal((await chain.contract.settledLogCounts()).get('8000'), 1);
  assert.ok(told.some((message) => message.startsWith('DeepReorgError') && message.includes(lost.txHash) && /sent again as the same transaction/.test(message)), told.join('\n'));
  // Confirmed stays confirmed: the fills' events are unchanged.
  assert.deepEqual(events.filter((e) => e.fill.id === '8000').map((e) => e.type), ['mined', 'confirmed']);
  await sender.stop();
});

test("a key out of gas: the node's refusal reaches onError, no fill fails, the refused transaction is sent again at its own fees, and the fills settle once the key holds what those fees need", async () => {
  const penniless = privateKeyToAccount(generatePrivateKey());
  const refusals: string[] = [];
  const { sender, of, store } = senderOn(chain.anvil, chain.contract, { account: penniless, confirmations: 0, replaceAfterMs: 100, onError: (error) => void refusals.push(String(error)) });
  await sender.start();
  sender.submit(fills(9000, 50));
  await waitFor('the refusal', () => refusals.length > 0);
  assert.match(refusals[0]!, /insufficient funds/i);
  // Ten replacement periods: raised 20% each time, the fees would have grown 6 times over.
  await waitFor('ten refusals more', () => refusals.length > 10);
  assert.equal(of('failed').length, 0, 'a key without gas fails no fill');
  const [record] = [...store.values()];
  assert.equal(record!.versions.length, 1, 'a refused transaction is not raised');

  // Exactly what the transaction's gas at its fee cap needs: enough for it, not for a raised one.
  const { gas } = record!;
  await chain.anvil.testClient.setBalance({ address: penniless.address, value: BigInt(gas) * BigInt(record!.versions[0]!.maxFeePerGas) });
  await waitFor('50 mined', () => of('mined').length === 50);
  assert.equal(of('mined')[0]!.txHash, record!.versions[0]!.hash);
  assert.equal(of('failed').length, 0);
  await sender.stop();
});

test('a chain that refuses every connection: failed steps wait longer each time (new fills do not cut the wait short), and the fills settle once it answers', async () => {
  const relay = await tcpCut('127.0.0.1', Number(new URL(chain.anvil.url).port));
  try {
    const failures: unknown[] = [];
    const client = createPublicClient({ chain: chain.anvil.chain, transport: http(`http://127.0.0.1:${relay.port}`, { retryCount: 0 }) }) as PublicClient;
    const { sender, of } = senderOn(chain.anvil, chain.contract, { client, confirmations: 0, maxBackoffMs: 1_000, onError: (error) => failures.push(error) });
    await sender.start();
    relay.cut();
    // Fills keep coming for two seconds: at 20 ms a poll, a sender that retried at once would try about a hundred times.
    for (let i = 0; i < 20; i++) {
      sender.submit(fills(9500 + i * 10, 10));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(failures.length >= 2, `the steps failed (${failures.length})`);
    // 40, 80, 160, 320, 640 ms, then a second each: at most 7 steps in two seconds.
    assert.ok(failures.length <= 7, `${failures.length} steps in two seconds`);
    assert.equal(of('failed').length, 0);

    relay.restore();
    await waitFor('200 mined', () => of('mined').length === 200);
    await sender.stop();
  } finally {
    await relay.close();
  }
});
