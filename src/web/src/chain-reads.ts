import type { PublicClient } from 'viem';
import type { ReadableChain } from './chain.ts';

/**
 * What the app reads from the chain itself, through the exchange's RPC URL, rather than from the
 * exchange's ledger: a wallet's balances and a transaction with its logs. viem's client code
 * loads on the first read (pages that never read the chain never load it).
 */

const ERC20_BALANCE = [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ type: 'uint256' }] }] as const;
const ERC1155_BALANCES = [{
  type: 'function', name: 'balanceOfBatch', stateMutability: 'view',
  inputs: [{ name: 'owners', type: 'address[]' }, { name: 'ids', type: 'uint256[]' }], outputs: [{ type: 'uint256[]' }],
}] as const;

const readers = new Map<string, Promise<PublicClient>>();

/** One viem client per RPC URL for the page's life. */
function reader(chain: ReadableChain): Promise<PublicClient> {
  let client = readers.get(chain.rpcUrl);
  if (!client) {
    client = import('viem').then(({ createPublicClient, http }) => createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient);
    readers.set(chain.rpcUrl, client);
  }
  return client;
}

export interface WalletOnChain {
  /** Collateral held by the wallet (ERC-20 balanceOf), base units. */
  collateral: bigint;
  /** Outcome tokens held by the wallet (ConditionalTokens' ERC-1155 balances), base units by token id. */
  tokens: ReadonlyMap<string, bigint>;
}

/** The wallet's collateral and its balance of each of `tokenIds`: two calls, whatever the number of tokens. */
export async function walletOnChain(chain: ReadableChain, wallet: `0x${string}`, tokenIds: readonly string[]): Promise<WalletOnChain> {
  const client = await reader(chain);
  const [collateral, balances] = await Promise.all([
    client.readContract({ address: chain.collateral, abi: ERC20_BALANCE, functionName: 'balanceOf', args: [wallet] }),
    tokenIds.length === 0 ? Promise.resolve([] as readonly bigint[])
      : client.readContract({ address: chain.conditionalTokens, abi: ERC1155_BALANCES, functionName: 'balanceOfBatch', args: [tokenIds.map(() => wallet), tokenIds.map(BigInt)] }),
  ]);
  return { collateral, tokens: new Map(tokenIds.map((id, i) => [id, balances[i] ?? 0n])) };
}

/** The events of the exchange's contracts that a trader's transactions emit, decoded on the transaction page. */
const KNOWN_EVENTS = [
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event PositionSplit(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)',
  'event PositionsMerge(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)',
  'event PayoutRedemption(address indexed redeemer, address indexed collateralToken, bytes32 indexed parentCollectionId, bytes32 conditionId, uint256[] indexSets, uint256 payout)',
  'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)',
  'event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled)',
  'event Withdrawn(address indexed to, uint256 amount, uint256 nonce)',
  'event WalletDeployed(address indexed owner, address indexed wallet)',
] as const;

export interface TransactionLog {
  index: number;
  address: `0x${string}`;
  /** The event's name and arguments when it is one of KNOWN_EVENTS. */
  event?: { name: string; args: [string, string][] };
  topics: readonly `0x${string}`[];
  data: `0x${string}`;
}

export type TransactionOnChain =
  | { found: false }
  | {
    found: true;
    hash: `0x${string}`;
    from: `0x${string}`;
    to: `0x${string}` | null;
    /** Undefined while the transaction waits to be mined. */
    receipt?: { status: 'success' | 'reverted'; blockNumber: bigint; timestamp: bigint; gasUsed: bigint; logs: TransactionLog[] };
  };

/** A transaction, its receipt and its logs; `found: false` for a hash the chain does not know. */
export async function transactionOnChain(chain: ReadableChain, hash: `0x${string}`): Promise<TransactionOnChain> {
  const client = await reader(chain);
  const { decodeEventLog, parseAbi } = await import('viem');
  const transaction = await client.getTransaction({ hash }).catch(notFoundAsUndefined);
  if (!transaction) return { found: false };
  const receipt = await client.getTransactionReceipt({ hash }).catch(notFoundAsUndefined);
  const base = { found: true as const, hash, from: transaction.from, to: transaction.to };
  if (!receipt) return base;
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  const abi = parseAbi(KNOWN_EVENTS);
  const logs = receipt.logs.map((log): TransactionLog => {
    const entry = { index: log.logIndex, address: log.address, topics: log.topics, data: log.data };
    try {
      const decoded = decodeEventLog({ abi, topics: log.topics, data: log.data });
      return { ...entry, event: { name: decoded.eventName, args: Object.entries(decoded.args as Record<string, unknown>).map(([name, value]) => [name, String(value)]) } };
    } catch {
      return entry;
    }
  });
  return { ...base, receipt: { status: receipt.status, blockNumber: receipt.blockNumber, timestamp: block.timestamp, gasUsed: receipt.gasUsed, logs } };
}

/** viem throws its TransactionNotFound and TransactionReceiptNotFound errors for an unknown hash. */
function notFoundAsUndefined(error: unknown): undefined {
  if (error instanceof Error && /NotFound/.test(error.name)) return undefined;
  throw error;
}
