import { parseAbi, type Address, type Log } from 'viem';
import { COLLATERAL } from '../../settlement/types.ts';
import type { Approval } from '../state/wallet-approvals.ts';

/**
 * The events the indexer reads: those that move value the ledger counts (the collateral's ERC-20
 * transfers and ConditionalTokens' ERC-1155 ones, mints and burns included), and those that give
 * or revoke the exchanges' right to move it (the collateral's `Approval`, ConditionalTokens'
 * `ApprovalForAll`).
 */
export const INDEXED_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
]);

interface LogPosition {
  readonly blockNumber: number;
  readonly txHash: string;
  /** `<txHash>:<logIndex>`, with `/<i>` for the i-th entry of a batch. */
  readonly ref: string;
}

/** One value moved by one log: a batch gives one per id. */
export interface LogTransfer extends LogPosition {
  /** Lowercase; the zero address for a mint or a burn. */
  readonly from: string;
  readonly to: string;
  /** COLLATERAL, or an outcome token's id in decimal. */
  readonly asset: string;
  readonly amount: bigint;
}

/** An approval an owner gave one of the exchanges, or revoked (wallet-approvals.ts: an allowance of zero is revoked). */
export interface LogApproval extends LogPosition {
  /** The owner, lowercase. */
  readonly account: string;
  readonly approval: Approval;
  readonly approved: boolean;
}

export type IndexedLog = LogTransfer | LogApproval;

export interface IndexedContracts {
  collateral: Address;
  conditionalTokens: Address;
  exchange: Address;
  negRiskExchange: Address;
}

type DecodedLog = Log<bigint, number, false, undefined, true, typeof INDEXED_EVENTS>;

/**
 * What each log did, in chain order. Left out: logs of other contracts or events, zero amounts and
 * transfers to oneself, and approvals of anyone but the two exchanges.
 */
export function indexedLogsOf(logs: readonly DecodedLog[], contracts: IndexedContracts): IndexedLog[] {
  const collateral = contracts.collateral.toLowerCase();
  const conditionalTokens = contracts.conditionalTokens.toLowerCase();
  const exchanges = new Map([[contracts.exchange.toLowerCase(), 'exchange'], [contracts.negRiskExchange.toLowerCase(), 'neg-risk-exchange']] as const);
  const out: IndexedLog[] = [];
  const moved = (t: LogTransfer) => {
    if (t.amount > 0n && t.from !== t.to) out.push(t);
  };
  for (const log of [...logs].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex)) {
    const address = log.address.toLowerCase();
    const at = { blockNumber: Number(log.blockNumber), txHash: log.transactionHash, ref: `${log.transactionHash}:${log.logIndex}` };
    if (log.eventName === 'Transfer' && address === collateral) {
      const { from, to, value } = log.args;
      moved({ ...at, from: from.toLowerCase(), to: to.toLowerCase(), asset: COLLATERAL, amount: value });
    } else if (log.eventName === 'TransferSingle' && address === conditionalTokens) {
      const { from, to, id, value } = log.args;
      moved({ ...at, from: from.toLowerCase(), to: to.toLowerCase(), asset: id.toString(), amount: value });
    } else if (log.eventName === 'TransferBatch' && address === conditionalTokens) {
      const { from, to, ids, values } = log.args;
      for (const [i, id] of ids.entries()) moved({ ...at, ref: `${at.ref}/${i}`, from: from.toLowerCase(), to: to.toLowerCase(), asset: id.toString(), amount: values[i]! });
    } else if (log.eventName === 'Approval' && address === collateral) {
      const exchange = exchanges.get(log.args.spender.toLowerCase());
      if (exchange) out.push({ ...at, account: log.args.owner.toLowerCase(), approval: `${exchange}:collateral`, approved: log.args.value > 0n });
    } else if (log.eventName === 'ApprovalForAll' && address === conditionalTokens) {
      const exchange = exchanges.get(log.args.operator.toLowerCase());
      if (exchange) out.push({ ...at, account: log.args.owner.toLowerCase(), approval: `${exchange}:outcome-tokens`, approved: log.args.approved });
    }
  }
  return out;
}
