import type { Market } from '../../../client/index.ts';
import { centsOf } from '../format.ts';

/**
 * The phone's sticky Buy bar (styles.css shows it in the one-column layout only): both outcomes at
 * the current price, one tap from the ticket. `onBuy` picks the outcome and brings the ticket up.
 */
export function BuyBar({ market, prices, onBuy }: { market: Market; prices: bigint[]; onBuy: (outcome: 0 | 1) => void }) {
  if (market.status !== 'ACTIVE') return null;
  return (
    <div className="buy-bar" data-testid="buy-bar">
      <button type="button" className="primary buy" onClick={() => onBuy(0)}>Buy {market.outcome1} {centsOf(prices[0]!, market.tickSize)}</button>
      <button type="button" className="primary sell" onClick={() => onBuy(1)}>Buy {market.outcome2} {centsOf(prices[1]!, market.tickSize)}</button>
    </div>
  );
}
