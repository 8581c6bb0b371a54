import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WalletTurns } from '../../src/conditional-tokens/wallet-turns.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** src/conditional-tokens/wallet-turns.ts: the chain-first operations of one wallet, one at a time. */
describe('wallet turns', () => {
  it("runs one wallet's operations in order, a failed one not blocking the next, and other wallets beside them", async () => {
    const turns = new WalletTurns();
    const log: string[] = [];
    const step = (name: string, fail = false) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([
      turns.run('0xAA', step('a1', true)),
      turns.run('0xaa', step('a2')),
      turns.run('0xbb', step('b1')),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'fulfilled', 'fulfilled']);
    // The same wallet in another case is the same wallet: a2 waits for a1; b1 runs beside a1.
    assert.ok(log.indexOf('a2 start') > log.indexOf('a1 end'), log.join(', '));
    assert.ok(log.indexOf('b1 start') < log.indexOf('a1 end'), log.join(', '));
    assert.equal(await turns.run('0xaa', step('a3')), 'a3', 'a wallet whose queue emptied runs at once');
  });
});
