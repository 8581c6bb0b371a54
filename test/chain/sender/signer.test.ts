// The sender's own signing against viem's, without a chain (the same bytes and the same hash).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keccak256, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { signVersion } from '../../../src/settlement/chain/sender/signer.ts';
import type { TxRecord } from '../../../src/settlement/chain/sender/types.ts';

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

for (const [name, data] of [['empty calldata', '0x'], ['a batch-sized calldata', `0x${'ab12'.repeat(20_000)}`]] as const) {
  test(`signVersion signs as viem's signTransaction does: ${name}`, async () => {
    const record: TxRecord = { nonce: 7, fillIds: ['f'], to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', data: data as Hex, gas: '5000000', versions: [], mined: null };
    const fees = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n };
    const { version, raw } = await signVersion(account, 31337, record, fees);
    const expected = await account.signTransaction({ type: 'eip1559', chainId: 31337, nonce: 7, to: record.to, data: record.data, gas: 5_000_000n, ...fees });
    assert.equal(raw, expected);
    assert.equal(version.hash, keccak256(expected));
    assert.deepEqual([version.maxFeePerGas, version.maxPriorityFeePerGas], ['2000000000', '1000000']);
  });
}
