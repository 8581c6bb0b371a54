import { getAddress, parseAbi } from 'viem';
import { costBaseUnits } from '../core/orders/reservation.ts';
import { COLLATERAL } from '../settlement/types.ts';
import type { ChainAuditTarget, ChainAuditViolation, ChainClient } from './chain-audit.ts';
import type { EngineState } from './state/engine-state.ts';

const BALANCE_ABI = parseAbi([
  'function balanceOf(address account) view returns (uint256)',
  'function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[])',
]);
const WALLET = /^0x[0-9a-f]{40}$/;
/** Token ids asked of ConditionalTokens in one call. */
const IDS_PER_CALL = 500;

/**
 * The ledger against the chain (`pmx audit` on CHAIN=embedded; docs/engine.md "Balances from
 * the chain"): every wallet the ledger holds a balance of, its collateral and its balance of every
 * outcome token the ledger knows, read on chain and compared with the ledger's balance. A trade
 * MATCHED but not mined has moved on one side only (the chain when mined before the engine heard of
 * it, the ledger when a reorg took it back), and a wallet's shortfall (chain-transfer-commands.ts)
 * is owed to the ledger: each difference they can explain is allowed. The chain is read at its
 * newest block, so transfers the indexer has not reached yet (fewer than CONFIRMATIONS blocks deep)
 * show as differences: audit a quiet exchange, or read its verdict with that in mind.
 */
export async function auditChainBalances(client: ChainClient, state: EngineState, target: ChainAuditTarget): Promise<{ violations: ChainAuditViolation[]; wallets: number }> {
  const wallets = [...new Set([...state.balances.rows()].map((r) => r.account).filter((account) => WALLET.test(account)))].sort();
  const tokenIds = [...state.ledger.markets.values()].flatMap((m) => [m.tokenId1, m.tokenId2]).sort();
  const slack = allowedDifferences(state);
  const violations: ChainAuditViolation[] = [];
  for (const wallet of wallets) {
    const onChain = await balancesOnChain(client, target, wallet, tokenIds);
    for (const [asset, chainBalance] of onChain) {
      const difference = chainBalance - state.balances.get(wallet, asset).balance;
      const allowed = slack.get(`${wallet}|${asset}`) ?? { low: 0n, high: 0n };
      if (difference < allowed.low || difference > allowed.high) {
        violations.push({ invariant: 'chain-balances', detail: `${wallet} ${asset}: ledger ${state.balances.get(wallet, asset).balance}, chain ${chainBalance}` });
      }
    }
  }
  return { violations, wallets: wallets.length };
}

async function balancesOnChain(client: ChainClient, target: ChainAuditTarget, wallet: string, tokenIds: string[]): Promise<Map<string, bigint>> {
  const account = getAddress(wallet);
  const balances = new Map<string, bigint>();
  balances.set(COLLATERAL, await client.readContract({ address: target.contracts.collateral, abi: BALANCE_ABI, functionName: 'balanceOf', args: [account] }));
  for (let start = 0; start < tokenIds.length; start += IDS_PER_CALL) {
    const ids = tokenIds.slice(start, start + IDS_PER_CALL);
    const held = await client.readContract({ address: target.contracts.conditionalTokens, abi: BALANCE_ABI, functionName: 'balanceOfBatch', args: [ids.map(() => account), ids.map(BigInt)] });
    for (const [i, id] of ids.entries()) balances.set(id, held[i]!);
  }
  return balances;
}

/** By `account|asset`: the range (chain − ledger) may take because of trades half-settled and shortfalls owed. */
function allowedDifferences(state: EngineState): Map<string, { low: bigint; high: bigint }> {
  const slack = new Map<string, { low: bigint; high: bigint }>();
  const allow = (account: string, asset: string, difference: bigint) => {
    const range = slack.get(`${account}|${asset}`) ?? { low: 0n, high: 0n };
    if (difference < 0n) range.low += difference;
    else range.high += difference;
    slack.set(`${account}|${asset}`, range);
  };
  for (const trade of state.unsettled.values()) {
    if (trade.status !== 'MATCHED') continue;
    // Not in the ledger: the chain may have moved already. In it (a reorg took it back): the chain may not have.
    const sign = trade.inLedger ? -1n : 1n;
    for (const party of [trade.taker, trade.maker]) {
      const cost = costBaseUnits(party.priceMicros, trade.sizeBaseUnits);
      const [collateral, tokens] = party.side === 'BUY' ? [-(cost + party.feeBaseUnits), trade.sizeBaseUnits] : [cost - party.feeBaseUnits, -trade.sizeBaseUnits];
      allow(party.account, COLLATERAL, sign * collateral);
      allow(party.account, party.tokenId, sign * tokens);
    }
  }
  for (const shortfall of state.chainIndex.shortfalls.values()) allow(shortfall.account, shortfall.asset, -shortfall.amount);
  return slack;
}
