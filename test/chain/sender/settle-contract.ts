// The test contract: `settle(ids)` records each id once, in order, and reverts the whole call on a
// repeat (`AlreadySettled(id)`) or on an id flagged bad (`Bad(id)`), as the exchange's fill state does.
import solc from 'solc';
import { type Address, type Hex, encodeFunctionData, parseEventLogs } from 'viem';
import type { Anvil } from './anvil.ts';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Settle {
  error AlreadySettled(uint256 id);
  error Bad(uint256 id);
  event Settled(uint256 indexed id);
  mapping(uint256 => bool) public settled;
  mapping(uint256 => bool) public bad;
  function flagBad(uint256 id, bool isBad) external { bad[id] = isBad; }
  function settle(uint256[] calldata ids) external {
    for (uint256 i = 0; i < ids.length; i++) {
      uint256 id = ids[i];
      if (bad[id]) revert Bad(id);
      if (settled[id]) revert AlreadySettled(id);
      settled[id] = true;
      emit Settled(id);
    }
  }
}`;

function compile() {
  const input = { language: 'Solidity', sources: { 'Settle.sol': { content: SOURCE } }, settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { Settle: ['abi', 'evm.bytecode.object'] } } } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const contract = output.contracts['Settle.sol'].Settle;
  return { abi: contract.abi as typeof SETTLE_ABI, bytecode: `0x${contract.evm.bytecode.object}` as Hex };
}

/** Written out so viem types the calls; `compile` produces the same. */
export const SETTLE_ABI = [
  { type: 'error', name: 'AlreadySettled', inputs: [{ name: 'id', type: 'uint256' }] },
  { type: 'error', name: 'Bad', inputs: [{ name: 'id', type: 'uint256' }] },
  { type: 'event', name: 'Settled', inputs: [{ name: 'id', type: 'uint256', indexed: true }], anonymous: false },
  { type: 'function', name: 'settled', stateMutability: 'view', inputs: [{ name: '', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'bad', stateMutability: 'view', inputs: [{ name: '', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'flagBad', stateMutability: 'nonpayable', inputs: [{ name: 'id', type: 'uint256' }, { name: 'isBad', type: 'bool' }], outputs: [] },
  { type: 'function', name: 'settle', stateMutability: 'nonpayable', inputs: [{ name: 'ids', type: 'uint256[]' }], outputs: [] },
] as const;

/** A fill of the tests: its id is the decimal of the uint256 the contract records. */
export interface TestFill {
  id: string;
}

export const fills = (from: number, count: number): TestFill[] => Array.from({ length: count }, (_, i) => ({ id: String(from + i) }));

/** Compiles and deploys Settle from the outsider's key (so the operator's nonce starts at 0). */
export async function deploySettle(anvil: Anvil) {
  const { bytecode } = compile();
  const hash = await anvil.outsiderWallet.deployContract({ abi: SETTLE_ABI, bytecode });
  // Under --no-mining nothing is mined until asked.
  await anvil.testClient.mine({ blocks: 1 });
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  const address = receipt.contractAddress as Address;
  return {
    address,
    encode: (batch: readonly TestFill[]) => ({ to: address, data: encodeFunctionData({ abi: SETTLE_ABI, functionName: 'settle', args: [batch.map((fill) => BigInt(fill.id))] }) }),
    /** The index of each fill's `Settled(id)` log in a receipt's logs, by fill id, for `mined.logIndex`. */
    logIndexesOf: (logs: Parameters<typeof parseEventLogs>[0]['logs']) =>
      new Map(parseEventLogs({ abi: SETTLE_ABI, logs, eventName: 'Settled' }).map((log) => [String(log.args.id), log.logIndex])),
    /** The transaction whose `Settled(id)` log settled `fill`, for the sender's `findSettlement`. */
    findSettlement: async (fill: TestFill) => {
      const logs = await anvil.publicClient.getContractEvents({ address, abi: SETTLE_ABI, eventName: 'Settled', args: { id: BigInt(fill.id) }, fromBlock: 0n });
      return logs[0]?.transactionHash ?? null;
    },
    /** How many `Settled` logs the chain holds per id: exactly one each, or a fill was settled twice. */
    settledLogCounts: async () => {
      const logs = await anvil.publicClient.getContractEvents({ address, abi: SETTLE_ABI, eventName: 'Settled', fromBlock: 0n });
      const counts = new Map<string, number>();
      for (const log of logs) counts.set(String(log.args.id), (counts.get(String(log.args.id)) ?? 0) + 1);
      return counts;
    },
    isSettled: (id: string) => anvil.publicClient.readContract({ address, abi: SETTLE_ABI, functionName: 'settled', args: [BigInt(id)] }),
    /** Flags `id` bad (or good again), from the outsider's key; the caller mines under --no-mining. */
    flagBad: (id: string, isBad = true) => anvil.outsiderWallet.writeContract({ address, abi: SETTLE_ABI, functionName: 'flagBad', args: [BigInt(id), isBad] }),
  };
}
