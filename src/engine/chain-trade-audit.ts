import { parseAbi, parseEventLogs, type Hex, type TransactionReceipt } from 'viem';
import { receiptOf } from '../settlement/chain/sender/chain-reads.ts';
import { recordedFills, type RecordedFill } from '../store/chain-trade-audit-repository.ts';
import type { Db } from '../store/database.ts';
import type { ChainAuditTarget, ChainAuditViolation, ChainClient } from './chain-audit.ts';

const FILL_ABI = parseAbi(['event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)']);
/** Transactions whose receipts are asked for at once (one batched JSON-RPC request). */
const TRANSACTIONS_PER_PAGE = 200;

/**
 * Every trade MINED or CONFIRMED against the transaction it names (EXTENSIONS.md section 14: a
 * trade's `txHash` is the transaction holding its fill): the transaction is on chain and did not
 * revert, and in it the exchanges' OrderFilled logs fill each order exactly the outcome tokens its
 * trades there say (an asset id of 0 is collateral, so the tokens are the side that is not), and
 * fill no order the trades do not name. Read at the chain's newest block: a trade mined fewer than
 * CONFIRMATIONS blocks ago that a reorg has just taken away shows until the engine hears of it.
 */
export async function auditChainTrades(client: ChainClient, db: Db, target: ChainAuditTarget): Promise<{ violations: ChainAuditViolation[]; transactions: number }> {
  const exchanges = new Set([target.contracts.exchange, target.contracts.negRiskExchange].map((a) => a.toLowerCase()));
  const violations: ChainAuditViolation[] = [];
  let transactions = 0;
  let after = '';
  for (;;) {
    const fills = await recordedFills(db, after, TRANSACTIONS_PER_PAGE);
    if (fills.length === 0) return { violations, transactions };
    const byTransaction = new Map<string, RecordedFill[]>();
    for (const fill of fills) {
      const recorded = byTransaction.get(fill.txHash);
      if (recorded) recorded.push(fill);
      else byTransaction.set(fill.txHash, [fill]);
    }
    const breaches = await Promise.all([...byTransaction].map(async ([txHash, recorded]) => transactionBreaches(txHash, recorded, await receiptOf(client, txHash as Hex), exchanges)));
    violations.push(...breaches.flat());
    transactions += byTransaction.size;
    after = fills.at(-1)!.txHash;
  }
}

function transactionBreaches(txHash: string, recorded: RecordedFill[], receipt: TransactionReceipt | null, exchanges: Set<string>): ChainAuditViolation[] {
  const breach = (detail: string): ChainAuditViolation => ({ invariant: 'chain-trades', detail: `transaction ${txHash}: ${detail}` });
  const trade = recorded[0]!.tradeId;
  if (!receipt) return [breach(`not on chain, named by trade ${trade}`)];
  if (receipt.status !== 'success') return [breach(`reverted, named by trade ${trade}`)];
  const filled = new Map<string, bigint>();
  const logs = parseEventLogs({ abi: FILL_ABI, eventName: 'OrderFilled', logs: receipt.logs.filter((log) => exchanges.has(log.address.toLowerCase())) });
  for (const { args } of logs) {
    const tokens = args.makerAssetId === 0n ? args.takerAmountFilled : args.makerAmountFilled;
    filled.set(args.orderHash.toLowerCase(), (filled.get(args.orderHash.toLowerCase()) ?? 0n) + tokens);
  }
  const breaches: ChainAuditViolation[] = [];
  for (const fill of recorded) {
    const onChain = filled.get(fill.orderHash) ?? 0n;
    if (onChain !== fill.tokens) breaches.push(breach(`order ${fill.orderHash} filled ${onChain} tokens on chain, ${fill.tokens} by its trades (trade ${fill.tradeId})`));
    filled.delete(fill.orderHash);
  }
  for (const [orderHash, tokens] of filled) breaches.push(breach(`order ${orderHash} filled ${tokens} tokens on chain, and no trade of it names the transaction`));
  return breaches;
}
