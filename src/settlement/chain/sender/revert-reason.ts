import { type Abi, BaseError, decodeErrorResult, type Hex } from 'viem';
import type { RevertReason } from './types.ts';

/** Solidity's `Error(string)` and `Panic(uint256)`, which a contract's ABI does not list. */
const SOLIDITY_ERRORS = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const;

const REVERTED = /revert/i;

/** The revert data an RPC error carries, if any (viem nests it at different depths per call). */
function revertData(error: BaseError): Hex | undefined {
  const found = error.walk((cause) => typeof (cause as { data?: unknown }).data === 'string' && /^0x[0-9a-f]*$/i.test((cause as { data: string }).data));
  const data = (found as { data?: Hex } | null)?.data;
  return data && data.length >= 10 ? data : undefined;
}

/**
 * The revert reason of a failed call, or null when the error is not a revert (a transport error,
 * a node refusing): those are retried, never blamed on a fill.
 */
export function revertReasonOf(error: unknown, abi: Abi): RevertReason | null {
  if (!(error instanceof BaseError)) return null;
  const data = revertData(error);
  if (data === undefined) {
    return REVERTED.test(error.message) ? { name: 'unknown', args: [], message: error.shortMessage } : null;
  }
  try {
    const decoded = decodeErrorResult({ abi: [...abi, ...SOLIDITY_ERRORS], data });
    const args = decoded.args ?? [];
    return { name: decoded.errorName, args, data, message: `${decoded.errorName}(${args.map(String).join(', ')})` };
  } catch {
    return { name: 'unknown', args: [], data, message: `reverted with undecodable data ${data.slice(0, 10)}` };
  }
}

/** A gas limit too high for any block, or a call out of the gas it was given (anvil: "EVM error OutOfGas"): the batch is too big, not bad. */
export const isGasCapError = (error: unknown) => error instanceof BaseError && /gas required exceeds|exceeds block gas limit|out ?of ?gas/i.test(error.message);
