import type { ExchangeClient, Order, OrderStatus, Trade } from '../client/index.ts';
import { feeBaseUnits } from '../core/book/fees.ts';
import { formatUnits, parseUnits } from '../core/money.ts';
import { decimal, orderStatusName, sideName } from './people.ts';
import { CliError } from './sdk-client.ts';

/** `--status open|filled` and the API's own words alike; `open` is the default listing (resting orders). */
export function orderStatusOf(word: string): OrderStatus | undefined {
  const w = word.toLowerCase();
  if (w === 'open') return undefined;
  const status = w === 'filled' ? 'EXECUTED' : word.toUpperCase();
  if (!['PENDING', 'EXECUTING', 'EXECUTED', 'CANCELLED', 'REJECTED'].includes(status)) throw new CliError(`--status: open, filled, cancelled, rejected, PENDING or EXECUTING, got "${word}"`);
  return status as OrderStatus;
}

export interface Fills {
  /** Tokens filled, base units. */
  size: bigint;
  /** Collateral paid (BUY) or received (SELL) before fees, base units. */
  notional: bigint;
  /** The taker fees of these fills, base units. */
  fees: bigint;
}

/**
 * What an order just placed filled, from the public trades in which its proxy wallet took: the
 * newest trades of its token and side since it was placed, as many as its matched amount. The trade
 * tables follow the engine by a moment, so this waits for them (at most `waitMs`); undefined when
 * they do not show the whole fill by then.
 */
export async function fillsOf(client: ExchangeClient, order: Order, waitMs = 3000): Promise<Fills | undefined> {
  const matched = parseUnits(decimal(order.matchedAmount)) ?? 0n;
  if (matched === 0n) return { size: 0n, notional: 0n, fees: 0n };
  const after = Math.floor(Date.parse(order.createdAt) / 1000) - 2;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { data } = await client.trades.list({ taker: order.maker as `0x${string}`, after, limit: 500 });
    const fills = takeFills(data.filter((t) => t.tokenId === order.tokenId && t.side === order.side), matched, order.feeRateBps);
    if (fills || Date.now() >= deadline) return fills;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function takeFills(trades: Trade[], matched: bigint, feeRateBps: number): Fills | undefined {
  const fills: Fills = { size: 0n, notional: 0n, fees: 0n };
  for (const trade of trades) {
    if (fills.size >= matched) break;
    const size = parseUnits(trade.size ?? '') ?? 0n;
    const priceMicros = parseUnits(trade.price ?? '') ?? 0n;
    fills.size += size;
    fills.notional += (size * priceMicros) / 1_000_000n;
    fills.fees += feeBaseUnits(feeRateBps, Number(priceMicros), size);
  }
  return fills.size === matched ? fills : undefined;
}

/**
 * One line for an order just placed: its state in the web app's words, what it asked, what filled
 * at what average price and for what fees, and what rests in the book:
 * `filled 1f0e…: BUY 10 Yes, limit 0.5; filled 10 @ avg 0.44, fees 0.088 USDC; nothing rests`.
 */
export async function orderLine(client: ExchangeClient, order: Order): Promise<string> {
  const rest = order.status === 'PENDING' || order.status === 'EXECUTING' ? (parseUnits(decimal(order.amount)) ?? 0n) - (parseUnits(decimal(order.matchedAmount)) ?? 0n) : 0n;
  const asked = `${orderStatusName(order.status, rest > 0n)} ${order.id}: ${sideName(order.side)} ${decimal(order.amount)} ${order.outcome}, limit ${decimal(order.price)}`;
  const matched = parseUnits(decimal(order.matchedAmount)) ?? 0n;
  const amount = parseUnits(decimal(order.amount)) ?? 0n;
  let filled = 'nothing filled';
  if (matched > 0n) {
    const fills = await fillsOf(client, order);
    filled = fills
      ? `filled ${decimal(formatUnits(fills.size))} @ avg ${decimal(averagePrice(fills))}, fees ${decimal(formatUnits(fills.fees))} USDC`
      : `filled ${decimal(formatUnits(matched))} (fill price not readable yet: see pmx trades)`;
  }
  const resting = rest > 0n ? `resting ${decimal(formatUnits(rest))} @ ${decimal(order.price)}` : order.status === 'CANCELLED' && matched < amount ? `${decimal(formatUnits(amount - matched))} cancelled unfilled` : 'nothing rests';
  return `${asked}; ${filled}; ${resting}`;
}

/** The size-weighted average price of fills, to the base unit (6 decimals). */
function averagePrice(fills: Fills): string {
  return formatUnits(fills.size === 0n ? 0n : (fills.notional * 1_000_000n + fills.size / 2n) / fills.size);
}
