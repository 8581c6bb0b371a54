import { lockedBonds } from '../../core/oracle/state-machine.ts';
import { costBaseUnits, reservationFor } from '../../core/orders/reservation.ts';
import { marketLockAccount, REWARD_TREASURY } from '../../settlement/accounts.ts';
import { redeemPayout } from '../../settlement/embedded/postings.ts';
import { COLLATERAL } from '../../settlement/types.ts';
import { remainingOf } from './book-orders.ts';
import type { EngineState } from './engine-state.ts';
import { termsOf } from './order-commands.ts';
import { approvalsNeeded } from './wallet-approvals.ts';

/**
 * The ledger's invariants checked on the engine's state itself (DESIGN.md "Balances are a ledger"):
 * what `pmx audit` checks on the tables, here on memory, so the simulation and property tests can
 * check them after every record. Returns what is broken, one line each (empty: all hold).
 * - every lock equals what its holder committed: open orders' reservations, matched trades not
 *   mined yet, oracle bonds, the oracle rewards escrowed in the reward treasury;
 * - an unresolved market's two tokens have equal supply, equal to the collateral in its lock;
 *   a resolved market's lock covers what its outstanding tokens pay;
 * - the collateral held equals the collateral ever credited;
 * - no open order needs an approval its wallet revoked on chain;
 * - the open orders are listed in acceptance order (bookSeq), as a snapshot restores them: what
 *   walks them (cancel-all, a key's cancels, retirement) answers the same live and after a restore.
 */
export function stateViolations(state: EngineState): string[] {
  const violations: string[] = [];
  const expected = new Map<string, bigint>();
  const add = (account: string, asset: string, amount: bigint) => {
    const key = `${account}|${asset}`;
    expected.set(key, (expected.get(key) ?? 0n) + amount);
  };
  const { missingApprovals } = state.chainIndex;
  let previousBookSeq = -1n;
  for (const order of state.open.values()) {
    if (order.bookSeq <= previousBookSeq) violations.push(`open orders: ${order.id} (bookSeq ${order.bookSeq}) listed after bookSeq ${previousBookSeq}`);
    previousBookSeq = order.bookSeq;
    add(order.account, order.side === 'BUY' ? COLLATERAL : order.tokenId, reservationFor(termsOf(order), remainingOf(order)));
    for (const approval of approvalsNeeded(order, state.markets.get(order.marketId)!)) {
      if (missingApprovals.has(order.account, approval)) violations.push(`approvals: open order ${order.id} needs ${approval}, which ${order.account} revoked`);
    }
  }
  for (const trade of state.unsettled.values()) {
    // A trade a reorg took back to MATCHED moved its amounts at its first mining: it holds no reservation.
    if (trade.status !== 'MATCHED' || trade.inLedger) continue;
    for (const party of [trade.taker, trade.maker]) {
      if (party.side === 'BUY') add(party.account, COLLATERAL, costBaseUnits(party.priceMicros, trade.sizeBaseUnits) + party.feeBaseUnits);
      else add(party.account, party.tokenId, trade.sizeBaseUnits);
    }
  }
  for (const question of state.questions.values()) for (const bond of lockedBonds(question)) add(bond.account, COLLATERAL, bond.amount);
  for (const escrowed of state.oracleEscrows.values()) add(REWARD_TREASURY, COLLATERAL, escrowed);

  const supply = new Map<string, bigint>();
  let held = 0n;
  for (const { account, asset, row } of state.balances.rows()) {
    const key = `${account}|${asset}`;
    if ((expected.get(key) ?? 0n) !== row.locked) violations.push(`locks: ${key} locked ${row.locked}, committed ${expected.get(key) ?? 0n}`);
    expected.delete(key);
    if (asset === COLLATERAL) held += row.balance;
    else supply.set(asset, (supply.get(asset) ?? 0n) + row.balance);
  }
  for (const [key, amount] of expected) if (amount !== 0n) violations.push(`locks: ${key} locked 0, committed ${amount}`);
  if (held !== state.ledger.credited) violations.push(`collateral: held ${held}, credited ${state.ledger.credited}`);

  for (const market of state.ledger.markets.values()) {
    const s1 = supply.get(market.tokenId1) ?? 0n;
    const s2 = supply.get(market.tokenId2) ?? 0n;
    const lock = state.balances.get(marketLockAccount(market.conditionId), COLLATERAL).balance;
    if (!market.payout && (s1 !== s2 || s1 !== lock)) violations.push(`supply: market ${market.conditionId} tokens ${s1}/${s2}, lock ${lock}`);
    if (market.payout && lock < redeemPayout(market.payout, s1, s2)) violations.push(`supply: resolved market ${market.conditionId} lock ${lock} below its payout`);
  }
  return violations;
}
