import type { Hex } from 'viem';
import { chainUnavailable, onChainOr503 } from '../contract/errors.ts';
import type { MergeOutcome } from '../engine/state/balance-commands.ts';
import type { EngineFailure, MarketTradingInfo } from '../engine/types.ts';
import { userAccount } from '../settlement/accounts.ts';
import { conditionOf, engineAfterChain, undoOnChain, walletOf, type ChainFirstDeps } from './chain-first.ts';
import { byReason } from './exclusions.ts';
import type { PositionHolder } from './operations.ts';

type Exclusion = MergeOutcome['excluded'][number];

/**
 * A batch merge on chain, then in the engine. Each market merges what the wallet holds of both
 * tokens on chain (SPEC.md: "computed from live on-chain balances") less what open orders reserve
 * of each (EXTENSIONS.md section 14: available is the chain's balance minus reservations), one
 * `mergePositions` per market; then the engine's merge of exactly those amounts, all or nothing.
 * A chain that fails part way splits back what it merged (a 503, nothing changed); an engine that
 * refuses (a reservation grew meanwhile) has every merge split back, and the merge starts again.
 * The answer's txHash is the last merge's transaction, and so is the ledger's (the activity's row hash).
 */
export async function mergeChainFirst(deps: ChainFirstDeps, holder: PositionHolder, marketIds: string[]): Promise<MergeOutcome | EngineFailure> {
  // An order that reserved some of the tokens between the amounts' reading and the engine's merge
  // makes the engine refuse them (INSUFFICIENT_BALANCE) and the chain's merges are split back: the
  // amounts are then read again, with that order's reservation, up to MERGE_ATTEMPTS times. The
  // caller asked to merge what is available, not an amount: a race with its own orders is not its error.
  for (let attempt = 1; ; attempt++) {
    const outcome = await mergeOnce(deps, holder, marketIds);
    if (outcome.ok || outcome.code !== 'INSUFFICIENT_BALANCE' || attempt === MERGE_ATTEMPTS) return outcome;
  }
}

/** How many times a merge is tried when a reservation grew under it (above). */
const MERGE_ATTEMPTS = 3;

async function mergeOnce(deps: ChainFirstDeps, holder: PositionHolder, marketIds: string[]): Promise<MergeOutcome | EngineFailure> {
  const { engine, positions } = deps;
  const account = userAccount(holder.proxyWallet);
  const excluded: Exclusion[] = [];
  const active: MarketTradingInfo[] = [];
  for (const marketId of marketIds) {
    const info = engine.reads.market(marketId);
    if (info?.status !== 'ACTIVE' || info.isResolved) excluded.push({ marketId, reason: 'not-mergeable' });
    else active.push(info);
  }
  const held = await onChainOr503('read the wallet\'s balances', () => positions.balances(holder.proxyWallet, active.flatMap((m) => [m.tokenId1, m.tokenId2])));
  const locked = new Map(engine.reads.balances(account).tokens.map((t) => [t.tokenId, t.locked]));
  const free = (tokenId: string, onChain: bigint) => onChain - (locked.get(tokenId) ?? 0n);
  const planned: { marketId: string; conditionId: Hex; amount: bigint }[] = [];
  active.forEach((info, index) => {
    const [a1, a2] = [free(info.tokenId1, held[2 * index]!), free(info.tokenId2, held[2 * index + 1]!)];
    const amount = a1 < a2 ? a1 : a2;
    if (amount > 0n) planned.push({ marketId: info.id, conditionId: conditionOf(info.conditionId), amount });
    else excluded.push({ marketId: info.id, reason: 'only-one-side' });
  });
  const answer = (txHash: string, merged: MergeOutcome['merged']): MergeOutcome => ({ ok: true, txHash, merged, excluded: byReason(excluded, ['not-mergeable', 'only-one-side'], marketIds) });
  if (planned.length === 0) return answer('', []);

  const merged: typeof planned = [];
  const splitBack = async () => {
    for (const done of merged) await positions.split(walletOf(holder), done.conditionId, done.amount);
  };
  let txHash = '';
  try {
    for (const market of planned) {
      txHash = await positions.merge(walletOf(holder), market.conditionId, market.amount);
      merged.push(market);
    }
  } catch (error) {
    await undoOnChain(deps, 'merge', splitBack);
    throw chainUnavailable('merge', error);
  }
  const outcome = await engineAfterChain(deps, 'merge', () => engine.merge({ account, marketIds: planned.map((m) => m.marketId), amounts: planned.map((m) => m.amount), chainTxHash: txHash }), splitBack);
  return outcome.ok ? answer(txHash, outcome.merged) : outcome;
}
