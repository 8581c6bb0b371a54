import { useEffect, useState, type FormEvent } from 'react';
import { ExchangeError, feeBaseUnits, formatUnits, type Level, type Market, OrderBuildError, orderAmounts, type OrderSpec } from '../../../client/index.ts';
import { centsOf, describeOrder, errorText, fee, money, sharesOf, units } from '../format.ts';
import { estimateBuy, estimateSell, type BookLevel, type MarketEstimate } from '../market-estimate.ts';
import { useQuery } from '../router.tsx';
import { notify, refresh, useSession } from '../session.ts';
import { centsText, limitDollars } from '../ticket-price.ts';
import { AmountInput, PriceInput } from './TicketInputs.tsx';

type Kind = 'limit' | 'market';
type Side = OrderSpec['side'];

/** What the preview shows, computed before anything is signed. */
interface Preview {
  /** The order as it will be sent (a market order: FAK/FOK at the estimate's worst price). */
  price: string;
  size: string;
  /** Collateral paid (BUY) or received before fees (SELL). */
  notional: bigint;
  /** The most fee this order can pay (taker rate; the maker rate for post-only). */
  fee: bigint;
  shares: bigint;
  /** A market order's estimate from the live book. */
  estimate?: MarketEstimate;
}

const DOLLAR_ADDS = ['1', '10', '100'];
const HALF = 500_000n;
const SHARE_ADDS = ['10', '50', '100'];

/**
 * The order ticket: BUY or SELL either outcome. A limit order (GTC, GTD, post-only) at a price
 * with tick steppers; a market order buys a dollar amount (or sells shares) at the live book's
 * prices, its average fill and slippage estimated from the book the page shows (market-estimate.ts)
 * and sent as FAK or FOK at the worst level reached. The preview uses the SDK's amount rules, so
 * what it refuses here carries the code the server would answer (OrderBuildError). The URL's
 * `?side=sell&shares=…` (the portfolio's Sell) opens it as a market sell of those shares.
 */
export function OrderTicket({ market: read, outcome, onOutcome, price: picked, book, prices, buyRequest }: {
  market: Market; outcome: 0 | 1; onOutcome: (outcome: 0 | 1) => void; price: string | undefined; book: { bids: Level[]; asks: Level[] } | undefined; prices: bigint[];
  /** Moves when the phone's Buy bar is tapped: the ticket turns to Buy. */
  buyRequest: number;
}) {
  const { client, wallet } = useSession();
  const query = useQuery();
  const selling = query.get('side') === 'sell';
  const [side, setSide] = useState<Side>(selling ? 'SELL' : 'BUY');
  const [kind, setKind] = useState<Kind>(selling ? 'market' : 'limit');
  /** The limit price as typed, in cents. */
  const [price, setPrice] = useState('');
  const [size, setSize] = useState(selling ? query.get('shares') ?? '' : '');
  const [dollars, setDollars] = useState('');
  const [gtd, setGtd] = useState(false);
  const [expiry, setExpiry] = useState('');
  const [postOnly, setPostOnly] = useState(false);
  const [fill, setFill] = useState<'FOK' | 'FAK'>('FAK');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  /** The market read again after an order was refused at the fee rate it was signed with. */
  const [reread, setReread] = useState<Market | undefined>(undefined);
  // The page reads a market's fees once, and an operator may change them (PATCH /admin/markets/{id})
  // with nothing sent to the page: after such a refusal the preview and the next order take the fees read again.
  const market = reread?.id === read.id ? { ...read, orderFeeRateBps: reread.orderFeeRateBps, passiveOrderFeeRateBps: reread.passiveOrderFeeRateBps } : read;

  useEffect(() => {
    if (buyRequest > 0) setSide('BUY');
  }, [buyRequest]);

  useEffect(() => {
    if (picked) {
      setPrice(centsText(units(picked) ?? 0n));
      setKind('limit');
    }
  }, [picked]);

  const tokenId = outcome === 0 ? market.tokenId1 : market.tokenId2;
  const buyingDollars = kind === 'market' && side === 'BUY';
  let preview: Preview | undefined;
  let problem: string | undefined;
  /** The limit price in dollars, as the order is sent. */
  let limit: string | undefined;
  try {
    if (kind === 'limit' && price) limit = limitDollars(price, market.tickSize);
    if (limit && size) preview = limitPreview(market, side, limit, size, postOnly);
    if (kind === 'market' && (buyingDollars ? dollars : size)) {
      preview = marketPreview(market, side, book, buyingDollars ? dollars : size);
      if (!preview) problem = `No ${side === 'BUY' ? 'sellers' : 'buyers'} in the book at the moment.`;
    }
  } catch (error) {
    problem = error instanceof OrderBuildError ? `${error.message} (${error.code})` : errorText(error);
  }

  /**
   * The fees read again, and what the trader is told: a fee change is a change of terms, so the
   * ticket never sends the order again on its own, whether the fee went up or down.
   */
  const feeChanged = async () => {
    const fresh = await client.markets.get(read.slug);
    setReread(fresh);
    return `Not placed: this market's fees changed to taker ${fresh.orderFeeRateBps} bps, maker ${fresh.passiveOrderFeeRateBps} bps. Review the order and its fee, and submit it again.`;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!tokenId || !preview) return;
    setBusy(true);
    setAnswer(undefined);
    try {
      const spec: OrderSpec = kind === 'limit'
        ? { tokenId, side, price: preview.price, size, type: 'GTC', postOnly, ...(gtd && expiry ? { expiration: Math.floor(new Date(expiry).getTime() / 1000) } : {}) }
        : { tokenId, side, price: preview.price, size: preview.size, type: fill };
      // Built on the rules the ticket checked: the SDK keeps those it first read of a market, and an
      // operator may have changed its tick since (the page follows it, live-book.ts onLiveTick) or
      // its fees (read again on a refusal, feeChanged).
      const order = await client.orders.place(await client.orders.build(spec, market));
      const text = describeOrder(order, market.tickSize);
      setAnswer({ ok: true, text });
      notify(text);
      refresh();
    } catch (error) {
      const text = error instanceof ExchangeError || error instanceof OrderBuildError ? `Refused: ${error.message} (${error.code})` : errorText(error);
      setAnswer({ ok: false, text: error instanceof ExchangeError && error.code === 'ORDER_FEE_RATE_MISMATCH' ? await feeChanged().catch(() => text) : text });
    } finally {
      setBusy(false);
    }
  };

  const outcomes = [market.outcome1, market.outcome2];
  const estimate = preview?.estimate;
  const action = `${side === 'BUY' ? 'Buy' : 'Sell'} ${outcomes[outcome]}`;
  return (
    <form className="panel ticket" onSubmit={submit} aria-label="Order ticket" data-testid="order-ticket" id="order-ticket">
      <div className="segmented" role="group" aria-label="Side">
        {(['BUY', 'SELL'] as const).map((value) => (
          <button key={value} type="button" aria-pressed={side === value} className={value === 'BUY' ? 'buy' : 'sell'} onClick={() => setSide(value)}>{value === 'BUY' ? 'Buy' : 'Sell'}</button>
        ))}
      </div>
      <div className="segmented" role="group" aria-label="Outcome">
        {outcomes.map((label, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the index is the outcome (0 or 1), which is what the key names
          <button key={label + index} type="button" aria-pressed={outcome === index} onClick={() => onOutcome(index as 0 | 1)}>{label} <span className="num">{centsOf(prices[index]!, market.tickSize)}</span></button>
        ))}
      </div>
      <div className="segmented small" role="group" aria-label="Order kind">
        <button type="button" aria-pressed={kind === 'market'} onClick={() => setKind('market')}>Market</button>
        <button type="button" aria-pressed={kind === 'limit'} onClick={() => setKind('limit')}>Limit</button>
      </div>
      {kind === 'limit' && <PriceInput label="Limit price" value={price} tickSize={market.tickSize} onChange={setPrice} />}
      {buyingDollars
        ? <AmountInput label="Amount" name="dollars" prefix="$" value={dollars} adds={DOLLAR_ADDS} onChange={setDollars} />
        : <AmountInput label="Shares" name="size" value={size} adds={SHARE_ADDS} onChange={setSize} />}
      {kind === 'limit' ? (
        <fieldset className="options">
          <legend className="sr-only">Limit options</legend>
          <label className="check"><input type="checkbox" checked={postOnly} onChange={(e) => setPostOnly(e.target.checked)} /> Post only</label>
          <label className="check"><input type="checkbox" checked={gtd} onChange={(e) => setGtd(e.target.checked)} /> Good till date</label>
          {gtd && <input type="datetime-local" aria-label="Expires at" value={expiry} onChange={(e) => setExpiry(e.target.value)} required />}
        </fieldset>
      ) : (
        <div className="segmented small" role="group" aria-label="Fill rule">
          <button type="button" aria-pressed={fill === 'FAK'} onClick={() => setFill('FAK')} title="Fill what can be filled now, cancel the rest">Fill and kill</button>
          <button type="button" aria-pressed={fill === 'FOK'} onClick={() => setFill('FOK')} title="Fill all of it now or nothing">Fill or kill</button>
        </div>
      )}
      <dl className="preview num" data-testid="order-preview">
        {estimate && <><dt>Avg price</dt><dd>{centsOf(estimate.averagePrice, market.tickSize)}</dd></>}
        {estimate && <><dt>Slippage</dt><dd data-testid="slippage">{centsOf(estimate.slippage, market.tickSize)}{estimate.complete ? '' : ' (book too thin)'}</dd></>}
        <dt>{side === 'BUY' ? 'Cost' : 'Proceeds'}</dt><dd>{preview ? money(preview.notional) : '—'}</dd>
        <dt>Fee (at most)</dt><dd data-testid="fee">{preview ? fee(preview.fee) : '—'}</dd>
        <dt>{estimate ? 'Est. shares' : 'Shares'}</dt><dd>{preview ? sharesOf(preview.shares) : '—'}</dd>
        <dt>{side === 'BUY' ? 'Payout if it wins' : 'Net of fee'}</dt><dd>{preview ? money(side === 'BUY' ? preview.shares : preview.notional - preview.fee) : '—'}</dd>
      </dl>
      {problem && <p className="error" role="alert" data-testid="ticket-problem">{problem}</p>}
      {wallet ? (
        <button type="submit" className={`primary wide ${side === 'BUY' ? 'buy' : 'sell'}`} disabled={busy || !preview || !tokenId || market.status !== 'ACTIVE'}>
          {busy ? 'Signing…' : kind === 'limit' ? `${action}${limit ? ` at ${centsText(units(limit) ?? 0n)}¢` : ''}` : `${action}${buyingDollars && dollars ? ` for ${money(units(dollars) ?? 0n)}` : ''}`}
        </button>
      ) : (
        <p className="muted">Sign in to trade.</p>
      )}
      {/* Always there, empty until answered: a live region added with its words is not announced by every screen reader. */}
      <p className={answer?.ok ? 'ok' : 'error'} role="status" data-testid="ticket-answer">{answer?.text}</p>
    </form>
  );
}

/** The most fee an order can pay: the larger of the taker and maker rates, or the maker rate for post-only. */
function maxFee(market: Market, priceMicros: bigint, shares: bigint, postOnly: boolean): bigint {
  const rate = postOnly ? market.passiveOrderFeeRateBps : Math.max(market.orderFeeRateBps, market.passiveOrderFeeRateBps);
  return feeBaseUnits(rate, Number(priceMicros), shares);
}

function limitPreview(market: Market, side: Side, price: string, size: string, postOnly: boolean): Preview {
  const amounts = orderAmounts(side, price, size, market.tickSize);
  const notional = side === 'BUY' ? amounts.makerAmount : amounts.takerAmount;
  return { price, size, notional, fee: maxFee(market, amounts.priceMicros, amounts.sizeBaseUnits, postOnly), shares: amounts.sizeBaseUnits };
}

/** A market order from the live book: dollars to spend (BUY) or shares to sell (SELL), as typed. */
function marketPreview(market: Market, side: Side, book: { bids: Level[]; asks: Level[] } | undefined, typed: string): Preview | undefined {
  const value = units(typed);
  if (value === undefined || value <= 0n) throw new OrderBuildError('ORDER_AMOUNT_INVALID', `${typed} is not an amount above zero`);
  const levels = (list: Level[] = []): BookLevel[] => list.map((level) => ({ price: units(level.price) ?? 0n, size: units(level.size) ?? 0n }));
  // Sizes are multiples of 10^(tick decimals) base units (DESIGN.md, "Exact amounts").
  const step = 10n ** BigInt(market.tickSize.split('.')[1]?.length ?? 0);
  const estimate = side === 'BUY' ? estimateBuy(levels(book?.asks), value, step) : estimateSell(levels(book?.bids), value);
  if (!estimate) return undefined;
  const price = formatUnits(estimate.worstPrice);
  const size = formatUnits(estimate.shares);
  // Checked by the SDK's rules as the order will be sent (tick, size decimals, bounds).
  orderAmounts(side, price, size, market.tickSize);
  // Each fill pays on min(p, 1 − p) at its own price: at most that of the price nearest 50¢ between the best level and the worst.
  const best = side === 'BUY' ? estimate.averagePrice - estimate.slippage : estimate.averagePrice + estimate.slippage;
  const [low, high] = best < estimate.worstPrice ? [best, estimate.worstPrice] : [estimate.worstPrice, best];
  const feePrice = HALF < low ? low : HALF > high ? high : HALF;
  return { price, size, notional: estimate.notional, fee: maxFee(market, feePrice, estimate.shares, false), shares: estimate.shares, estimate };
}
