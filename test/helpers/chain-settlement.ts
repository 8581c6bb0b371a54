/**
 * Checks of trades settled on a chain (CHAIN=embedded or rpc), shared by the kill -9 tests: crossing
 * pairs sent at once so settlement is in flight, waiting for every trade to be CONFIRMED, and every
 * wallet's on-chain collateral and tokens compared with its ledger balances (a fill settled twice,
 * or lost, shows there).
 */
import assert from 'node:assert/strict';
import { getAddress, type PublicClient } from 'viem';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import type { PublishedMarket } from './catalogue.ts';
import { signedRequest } from './auth-client.ts';
import { get, type JsonResponse } from './http.ts';
import type { ApiServer } from './server.ts';
import { placeOrder, type Trader } from './trader.ts';

const PAIRS = 12;
/** The size of the i-th pair's orders, both sides alike. */
const pairSize = (i: number) => 1 + (i % 3);
/** What `crossPairs` trades in all, in whole tokens: every order fills, however the pairs interleave. */
export const CROSSED_UNITS = Array.from({ length: PAIRS }, (_, i) => pairSize(i)).reduce((sum, size) => sum + size, 0);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PAIRS crossing pairs sent at once, signed and not, MINT and COMPLEMENTARY: settlement is in flight when the answers are in. */
export async function crossPairs(server: ApiServer, market: PublishedMarket, traders: Trader[]): Promise<void> {
  const [a, b, c, d] = traders as [Trader, Trader, Trader, Trader];
  const makers = await Promise.all(Array.from({ length: PAIRS }, (_, i) =>
    placeOrder(server, i % 2 === 0 ? a : c, { tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: String(pairSize(i)), signed: i % 3 !== 0 })));
  for (const maker of makers) assert.equal(maker.status, 200, JSON.stringify(maker.body));
  const takers: JsonResponse[] = await Promise.all(Array.from({ length: PAIRS }, (_, i) =>
    placeOrder(server, i % 2 === 0 ? b : d, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: String(pairSize(i)), signed: i % 2 === 0 })));
  for (const taker of takers) assert.equal(taker.status, 200, JSON.stringify(taker.body));
}

/** The trades of a trader (as maker or taker), from the API. */
export async function tradesOf(server: ApiServer, trader: Trader): Promise<any[]> {
  return (await get(server.api(`/trades?user=${trader.proxyWallet}&limit=500`))).body.data;
}

export async function untilEveryTradeSettled(server: ApiServer, traders: Trader[], limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const trades = (await Promise.all(traders.map((t) => tradesOf(server, t)))).flat();
    if (trades.length > 0 && trades.every((t) => t.status === 'CONFIRMED')) return;
    if (Date.now() > until) assert.fail(`trades still unsettled: ${JSON.stringify(trades.filter((t) => t.status !== 'CONFIRMED').map((t) => t.status))}`);
    await pause(200);
  }
}

/** Every trade CONFIRMED in a successful transaction, and each wallet's collateral and tokens on chain equal to its ledger balances. */
export async function expectSettledOnChain(server: ApiServer, client: PublicClient, market: PublishedMarket, traders: Trader[]): Promise<void> {
  const deployed = (await get(server.api('/exchange'))).body;
  for (const trader of traders) {
    for (const trade of await tradesOf(server, trader)) {
      assert.equal(trade.status, 'CONFIRMED');
      assert.equal((await client.getTransactionReceipt({ hash: trade.txHash })).status, 'success');
    }
    // Asked of `server`, which may not be the node the trader signed in on (a takeover).
    const balance = (await signedRequest(server, trader.creds, 'GET', '/account/balance')).body;
    const wallet = getAddress(trader.proxyWallet);
    const collateral = await client.readContract({ address: deployed.collateral.address, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [wallet] });
    assert.equal(String(collateral), units(balance.collateral.balance), `${wallet}'s collateral`);
    for (const tokenId of [market.tokenId1, market.tokenId2]) {
      const held = await client.readContract({ address: deployed.conditionalTokens, abi: loadArtifact('ConditionalTokens').abi, functionName: 'balanceOf', args: [wallet, BigInt(tokenId)] });
      const ledger = balance.tokens.find((t: { tokenId: string }) => t.tokenId === tokenId)?.balance ?? '0';
      assert.equal(String(held), units(ledger), `${wallet}'s token ${tokenId}`);
    }
  }
}

/** A decimal string of USDC or tokens (6 decimals) in base units. */
function units(decimal: string): string {
  const [whole, fraction = ''] = decimal.split('.');
  return String(BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0')));
}
