import { parseAbi, toEventSelector, type Address, type Hex } from 'viem';
import { COLLATERAL } from '../../settlement/types.ts';
import { OPERATOR_TRADING, type Approval } from '../state/wallet-approvals.ts';

/**
 * The events the indexer reads: those that move value the ledger counts (the collateral's ERC-20
 * transfers and ConditionalTokens' ERC-1155 ones, mints and burns included), those that give
 * or revoke the exchanges' right to move it (the collateral's `Approval`, ConditionalTokens'
 * `ApprovalForAll`), and a proxy wallet's switch of operator trading, without which its unsigned
 * orders cannot settle (`OperatorTradingSet`, logged by the wallet itself).
 */
const INDEXED_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event OperatorTradingSet(bool allowed)',
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

/**
 * An approval an owner gave one of the exchanges, or revoked (wallet-approvals.ts: an allowance of
 * zero is revoked), or a wallet's operator trading turned on or off.
 */
export interface LogApproval extends LogPosition {
  /** The owner (the wallet, for operator trading), lowercase. */
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

/** A log as `eth_getLogs` answers it: numbers in hex. */
export interface RawLog {
  readonly address: string;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  readonly blockNumber: Hex | null;
  readonly logIndex: Hex | null;
  readonly transactionHash: Hex | null;
}

const [TRANSFER, TRANSFER_SINGLE, TRANSFER_BATCH, APPROVAL, APPROVAL_FOR_ALL, OPERATOR_TRADING_SET] = INDEXED_EVENTS.map((event) => toEventSelector(event));
/** The `topics` filter of the indexer's `eth_getLogs` of the collateral and ConditionalTokens: any of their indexed events. */
export const INDEXED_TOPICS: Hex[][] = [[TRANSFER!, TRANSFER_SINGLE!, TRANSFER_BATCH!, APPROVAL!, APPROVAL_FOR_ALL!]];
/** The `topics` filter of the indexer's `eth_getLogs` of any contract: wallets' operator-trading switches (those of users' wallets count). */
export const WALLET_TOPICS: Hex[][] = [[OPERATOR_TRADING_SET!]];

/**
 * What each log did, in chain order. Left out: logs of other contracts or events, zero amounts and
 * transfers to oneself, approvals of anyone but the two exchanges, and logs whose topics or data
 * do not fit their event. An operator-trading switch may come from any contract: the indexer
 * counts those of users' wallets only. Decoded here rather than by viem's `parseEventLogs`, which
 * tries each event of the ABI on each log: a settlement batch's transaction logs hundreds of
 * transfers, and decoding them took a settlement's event loop 60 µs a log.
 */
export function indexedLogsOf(logs: readonly RawLog[], contracts: IndexedContracts): IndexedLog[] {
  const collateral = contracts.collateral.toLowerCase();
  const conditionalTokens = contracts.conditionalTokens.toLowerCase();
  const exchanges = new Map([[contracts.exchange.toLowerCase(), 'exchange'], [contracts.negRiskExchange.toLowerCase(), 'neg-risk-exchange']] as const);
  const out: IndexedLog[] = [];
  const moved = (t: LogTransfer) => {
    if (t.amount > 0n && t.from !== t.to) out.push(t);
  };
  const placed = logs.filter((log) => log.blockNumber !== null && log.logIndex !== null && log.transactionHash !== null);
  for (const log of placed.sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex))) {
    const address = log.address.toLowerCase();
    const { topics, data } = log;
    const at = { blockNumber: Number(log.blockNumber), txHash: log.transactionHash!, ref: `${log.transactionHash}:${Number(log.logIndex)}` };
    if (topics[0] === TRANSFER && address === collateral && topics.length === 3 && wordsIn(data) === 1) {
      moved({ ...at, from: addressIn(topics[1]!), to: addressIn(topics[2]!), asset: COLLATERAL, amount: word(data, 0) });
    } else if (topics[0] === TRANSFER_SINGLE && address === conditionalTokens && topics.length === 4 && wordsIn(data) === 2) {
      moved({ ...at, from: addressIn(topics[2]!), to: addressIn(topics[3]!), asset: word(data, 0).toString(), amount: word(data, 1) });
    } else if (topics[0] === TRANSFER_BATCH && address === conditionalTokens && topics.length === 4) {
      const ids = uintArray(data, 0);
      const values = uintArray(data, 1);
      if (ids === undefined || values === undefined || ids.length !== values.length) continue;
      const [from, to] = [addressIn(topics[2]!), addressIn(topics[3]!)];
      for (const [i, id] of ids.entries()) moved({ ...at, ref: `${at.ref}/${i}`, from, to, asset: id.toString(), amount: values[i]! });
    } else if (topics[0] === APPROVAL && address === collateral && topics.length === 3 && wordsIn(data) === 1) {
      const exchange = exchanges.get(addressIn(topics[2]!));
      if (exchange) out.push({ ...at, account: addressIn(topics[1]!), approval: `${exchange}:collateral`, approved: word(data, 0) > 0n });
    } else if (topics[0] === APPROVAL_FOR_ALL && address === conditionalTokens && topics.length === 3 && wordsIn(data) === 1 && word(data, 0) <= 1n) {
      const exchange = exchanges.get(addressIn(topics[2]!));
      if (exchange) out.push({ ...at, account: addressIn(topics[1]!), approval: `${exchange}:outcome-tokens`, approved: word(data, 0) === 1n });
    } else if (topics[0] === OPERATOR_TRADING_SET && topics.length === 1 && wordsIn(data) === 1 && word(data, 0) <= 1n) {
      out.push({ ...at, account: address, approval: OPERATOR_TRADING, approved: word(data, 0) === 1n });
    }
  }
  return out;
}

/** An indexed address topic's address, lowercase. */
const addressIn = (topic: Hex): string => `0x${topic.slice(26)}`.toLowerCase();
/** How many whole 32-byte words `data` holds (NaN when it is not whole words). */
const wordsIn = (data: Hex): number => ((data.length - 2) % 64 === 0 ? (data.length - 2) / 64 : NaN);
const word = (data: Hex, index: number): bigint => BigInt(`0x${data.slice(2 + 64 * index, 66 + 64 * index)}`);

/** The `uint256[]` whose offset is the `index`-th word of `data`, or undefined when it does not fit in `data`. */
function uintArray(data: Hex, index: number): bigint[] | undefined {
  const words = wordsIn(data);
  if (!(index < words)) return undefined;
  const offset = word(data, index);
  if (offset % 32n !== 0n || offset / 32n >= BigInt(words)) return undefined;
  const start = Number(offset / 32n);
  const length = word(data, start);
  if (BigInt(start) + 1n + length > BigInt(words)) return undefined;
  return Array.from({ length: Number(length) }, (_, k) => word(data, start + 1 + k));
}
