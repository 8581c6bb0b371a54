// A sender that dies mid-settlement, and the one that resumes from its persisted records: one
// transaction mined and reported, one mined while no sender ran, one persisted but never broadcast.
import assert from 'node:assert/strict';
import { recordKey, type TxRecord } from '../../../src/settlement/chain/sender/index.ts';
import { chainPerFile, chainTest as test, senderOn, waitFor } from './harness.ts';
import { fills } from './settle-contract.ts';

const chain = chainPerFile(['--no-mining']);

const mine = () => chain.anvil.testClient.mine({ blocks: 1 });

test('resume after a crash: mined records are reported, unmined ones found mined or sent again at their own nonce, nothing settles twice', async () => {
  const all = fills(1000, 30);
  const persisted = new Map<string, TxRecord>();
  const crashOn = '1020';
  const first = senderOn(chain.anvil, chain.contract, {
    maxFillsPerTx: 10,
    confirmations: 2,
    replaceAfterMs: 60_000,
    persist: (change) => {
      if (change.kind === 'drop') return void persisted.delete(recordKey(change.record));
      persisted.set(recordKey(change.record), change.record);
      // The process dies once this record is durable, before its broadcast.
      if (change.record.fillIds.includes(crashOn)) {
        void first.sender.stop();
        throw new Error('killed');
      }
    },
  });
  await first.sender.start();
  first.sender.submit(all.slice(0, 10));
  await waitFor('the first batch sent', () => persisted.size === 1);
  await mine();
  await waitFor('the first batch mined', () => first.of('mined').length === 10);
  first.sender.submit(all.slice(10, 20));
  await waitFor('the second batch sent', () => persisted.size === 2);
  first.sender.submit(all.slice(20, 30));
  await waitFor('the third batch persisted', () => persisted.size === 3);
  await first.sender.stop();
  assert.equal(Number((await chain.anvil.testClient.getTxpoolStatus()).pending), 1, 'the third batch was never broadcast');
  await mine(); // the second batch is mined while no sender runs

  const second = senderOn(chain.anvil, chain.contract, { maxFillsPerTx: 10, confirmations: 2, replaceAfterMs: 60_000 });
  const records = [...persisted.values()];
  assert.deepEqual(records.map((r) => r.mined !== null), [true, false, false]);
  second.sender.resume(records, all);
  await second.sender.start();
  await waitFor('20 mined, the third batch sent again', async () => second.of('mined').length === 20 && Number((await chain.anvil.testClient.getTxpoolStatus()).pending) === 1);
  await mine();
  await waitFor('30 mined', () => second.of('mined').length === 30);
  assert.deepEqual(second.of('mined').map((e) => e.txHash), records.flatMap((r) => Array(10).fill(r.versions[0]!.hash)), 'each batch in the transaction its record names');
  await chain.anvil.testClient.mine({ blocks: 2 });
  await waitFor('30 confirmed', () => second.of('confirmed').length === 30);
  assert.equal(second.of('failed').length, 0);
  const counts = await chain.contract.settledLogCounts();
  for (const fill of all) assert.equal(counts.get(fill.id), 1, `fill ${fill.id} settled once`);
  assert.deepEqual(second.sender.records(), []);
  await second.sender.stop();
});
