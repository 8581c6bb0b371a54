import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContractFunctionExecutionError, ContractFunctionRevertedError, encodeAbiParameters } from 'viem';
import { treasuryShortfallOf } from '../../src/chain/treasury-shortfall.ts';

const OPERATOR = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const revert = `0xe450d38c${encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }], [OPERATOR, 2_500_000n, 10_000_000n]).slice(2)}` as const;

/** A credit's transfer refused for the treasury's balance is told apart from a chain to try again (src/chain/treasury-shortfall.ts). */
describe('treasuryShortfallOf', () => {
  it("reads the collateral's ERC20InsufficientBalance from a reverted contract call", () => {
    const reverted = new ContractFunctionRevertedError({ abi: [], data: revert, functionName: 'transfer' });
    const error = new ContractFunctionExecutionError(reverted, { abi: [], functionName: 'transfer', contractAddress: OPERATOR, args: [] });
    assert.deepEqual(treasuryShortfallOf(error), { holder: OPERATOR, balance: 2_500_000n, needed: 10_000_000n });
  });

  it('reads it from a node that printed the revert in its message', () => {
    const error = new Error(`Execution reverted with reason: custom error 0xe450d38c: ${revert.slice(10)}.`);
    assert.deepEqual(treasuryShortfallOf(error), { holder: OPERATOR, balance: 2_500_000n, needed: 10_000_000n });
  });

  it('is undefined for any other failure', () => {
    assert.equal(treasuryShortfallOf(new Error('fetch failed')), undefined);
    assert.equal(treasuryShortfallOf(new ContractFunctionRevertedError({ abi: [], data: '0x08c379a0', functionName: 'transfer' })), undefined);
  });
});
