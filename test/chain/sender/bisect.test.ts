// Bisection and fee bumping alone, without a chain.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bisect, type Simulation } from '../../../src/settlement/chain/sender/bisect.ts';

/** 10 gas per item; reverts if it holds a bad item. */
function run(items: number[], bad: Set<number>, maxGas: bigint) {
  const sent: number[][] = [];
  const failed: [number, string][] = [];
  let simulations = 0;
  const done = bisect(items, {
    simulate: async (batch): Promise<Simulation> => {
      simulations++;
      const culprit = batch.find((item) => bad.has(item));
      return culprit === undefined ? { kind: 'ok', gas: BigInt(batch.length * 10) } : { kind: 'reverted', reason: { name: 'Bad', args: [culprit], message: `Bad(${culprit})` } };
    },
    send: async (batch) => void sent.push([...batch]),
    fail: async (item, reason) => void failed.push([item, reason.name]),
    maxGas,
  });
  return done.then(() => ({ sent, failed, simulations }));
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test('a good batch within the gas cap is sent whole after one simulation', async () => {
  assert.deepEqual(await run(range(200), new Set(), 10_000n), { sent: [range(200)], failed: [], simulations: 1 });
});

test('each bad item fails alone; the good ones are sent in order; about 2k·log2(n) simulations', async () => {
  const { sent, failed, simulations } = await run(range(200), new Set([37, 150]), 10_000n);
  assert.deepEqual(failed, [[37, 'Bad'], [150, 'Bad']]);
  assert.deepEqual(sent.flat(), range(200).filter((i) => i !== 37 && i !== 150));
  assert.ok(simulations <= 2 * 2 * 8 + 1, `${simulations} simulations`);
});

test('a batch over the gas cap is halved; a single item over it fails as GasAboveCap', async () => {
  const { sent } = await run(range(8), new Set(), 20n);
  assert.deepEqual(sent, [[0, 1], [2, 3], [4, 5], [6, 7]]);
  assert.deepEqual((await run([1], new Set(), 5n)).failed, [[1, 'GasAboveCap']]);
});
