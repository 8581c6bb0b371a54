import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Caller } from '../api/auth/types.ts';
import type { AppContext } from '../api/context.ts';
import type { MarketTradingInfo } from '../engine/types.ts';
import { userAccount } from '../settlement/index.ts';
import { findOrCreateUserByAddress } from '../store/users-repository.ts';

/**
 * Two demo market makers (`npm run demo`): they quote both sides of every tradable market around
 * a slowly wandering fair price and now and then take each other's quote, so the books move and
 * trades flow for a newcomer watching REST or Socket.IO. They trade through the same order entry
 * as any API client (unsigned orders, authorised as their own accounts); quotes expire on their
 * own after a minute. Demo only: their keys are derived from fixed strings.
 */
const FUNDING_BASE_UNITS = 1_000_000n * 1_000_000n;
const QUOTE_LIFETIME_SEC = 60;

interface Maker {
  caller: Caller;
}

export interface DemoMakers {
  stop(): void;
}

export async function startDemoMakers(ctx: AppContext, intervalMs = 2_000): Promise<DemoMakers> {
  const makers = [await demoMaker(ctx, 'pmx-demo-maker-1'), await demoMaker(ctx, 'pmx-demo-maker-2')];
  const fair = new Map<string, number>();
  let round = 0;
  const timer = setInterval(() => {
    round += 1;
    void quoteAll(ctx, makers, fair, round).catch((error: unknown) => ctx.logger.warn({ err: error }, 'demo market makers skipped a round'));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function demoMaker(ctx: AppContext, seed: string): Promise<Maker> {
  const account = privateKeyToAccount(keccak256(toHex(seed)));
  const user = await findOrCreateUserByAddress(ctx.store.db, account.address);
  const ledgerAccount = userAccount(user.proxyWallet);
  const { collateral } = await ctx.settlement.balances(ctx.store.db, ledgerAccount);
  if (collateral.balance < FUNDING_BASE_UNITS / 10n) {
    await ctx.settlement.transaction((tx) => ctx.settlement.credit(tx, { account: ledgerAccount, amount: FUNDING_BASE_UNITS, reason: 'DEPOSIT', ref: `demo:${seed}` }));
  }
  return { caller: { userId: user.id, address: account.address, proxyWallet: user.proxyWallet, via: 'apiKey' } };
}

async function quoteAll(ctx: AppContext, makers: Maker[], fair: Map<string, number>, round: number): Promise<void> {
  const nowSec = Math.floor(ctx.clock.nowMs() / 1000);
  for (const market of await ctx.trading.markets.loadActive()) {
    if (market.isPaused || market.isResolved) continue;
    const tick = Number(market.tickSize);
    const price = wander(fair.get(market.id) ?? 0.5, tick);
    fair.set(market.id, price);
    const [bidder, asker] = round % 2 === 0 ? makers : [makers[1]!, makers[0]!];
    const spread = 2 * tick;
    // The bidder buys outcome 1; the asker offers outcome 1 by bidding for outcome 2 (a MINT when crossed).
    await quote(ctx, bidder!, market, market.tokenId1, price - spread, nowSec);
    await quote(ctx, asker!, market, market.tokenId2, 1 - (price + spread), nowSec);
    if (round % 3 === 0) await quote(ctx, bidder!, market, market.tokenId1, price + spread, nowSec, 'FAK');
  }
}

/** A random step of at most two ticks, kept inside [0.1, 0.9]. */
function wander(price: number, tick: number): number {
  const step = (Math.floor(Math.random() * 5) - 2) * tick;
  return Math.min(0.9, Math.max(0.1, price + step));
}

async function quote(ctx: AppContext, maker: Maker, market: MarketTradingInfo, tokenId: string, price: number, nowSec: number, orderType: 'GTC' | 'FAK' = 'GTC'): Promise<void> {
  const decimals = market.tickSize.split('.')[1]!.length;
  const priceMicros = BigInt(Math.round(Number(price.toFixed(decimals)) * 1e6));
  if (priceMicros <= 0n || priceMicros >= 1_000_000n) return;
  const size = BigInt(10 + Math.floor(Math.random() * 40)) * 1_000_000n;
  await ctx.trading.orderEntry.submit(maker.caller, {
    salt: BigInt(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER)).toString(),
    taker: '0x0000000000000000000000000000000000000000',
    tokenId,
    makerAmount: ((priceMicros * size) / 1_000_000n).toString(),
    takerAmount: size.toString(),
    expiration: orderType === 'GTC' ? nowSec + QUOTE_LIFETIME_SEC : 0,
    side: 0,
    orderType,
  });
}
