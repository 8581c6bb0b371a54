import { useEffect, useState, type FormEvent } from 'react';
import { ExchangeError, feeBaseUnits, OrderBuildError, orderAmounts, type Market, type OrderAmounts, type OrderSpec } from '../../../client/index.ts';
import { amount, cents, describeOrder, errorText, money } from '../format.ts';
import { notify, refresh, useSession } from '../session.ts';

type Kind = 'limit' | 'market';
type Side = OrderSpec['side'];

interface Preview {
  amounts: OrderAmounts;
  /** Collateral paid (BUY) or received before fees (SELL). */
  notional: bigint;
  /** The most fee this order can pay (taker rate; the maker rate for post-only). */
  fee: bigint;
  /** What the shares pay if the outcome wins (BUY), or what the sale brings net of fees (SELL). */
  payout: bigint;
}

/**
 * The order ticket: BUY or SELL either outcome, limit (GTC, GTD, post-only) or market-style
 * (FOK/FAK at a worst price). The preview uses the SDK's own amount rules, so what it refuses here
 * carries the code the server would answer (OrderBuildError); the server's answer is put in words.
 */
export function OrderTicket({ market, outcome, onOutcome, price: picked }: { market: Market; outcome: 0 | 1; onOutcome: (outcome: 0 | 1) => void; price: string | undefined }) {
  const { client, wallet } = useSession();
  const [side, setSide] = useState<Side>('BUY');
  const [kind, setKind] = useState<Kind>('limit');
  const [price, setPrice] = useState('');
  const [size, setSize] = useState('');
  const [gtd, setGtd] = useState(false);
  const [expiry, setExpiry] = useState('');
  const [postOnly, setPostOnly] = useState(false);
  const [fill, setFill] = useState<'FOK' | 'FAK'>('FAK');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | undefined>(undefined);

  useEffect(() => {
    if (picked) setPrice(picked);
  }, [picked]);

  const tokenId = outcome === 0 ? market.tokenId1 : market.tokenId2;
  let preview: Preview | undefined;
  let problem: string | undefined;
  if (price && size) {
    try {
      preview = previewOf(market, side, price, size, kind === 'limit' && postOnly);
    } catch (error) {
      problem = error instanceof OrderBuildError ? `${error.message} (${error.code})` : errorText(error);
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!tokenId || !preview) return;
    setBusy(true);
    setAnswer(undefined);
    try {
      const spec: OrderSpec = kind === 'limit'
        ? { tokenId, side, price, size, type: 'GTC', postOnly, ...(gtd && expiry ? { expiration: Math.floor(new Date(expiry).getTime() / 1000) } : {}) }
        : { tokenId, side, price, size, type: fill };
      const order = await client.orders.place(spec);
      const text = describeOrder(order);
      setAnswer({ ok: true, text });
      notify(text);
      refresh();
    } catch (error) {
      const text = error instanceof ExchangeError || error instanceof OrderBuildError ? `Refused: ${error.message} (${error.code})` : errorText(error);
      setAnswer({ ok: false, text });
    } finally {
      setBusy(false);
    }
  };

  const outcomes = [market.outcome1, market.outcome2];
  return (
    <form className="panel ticket" onSubmit={submit} aria-label="Order ticket" data-testid="order-ticket">
      <div className="segmented" role="group" aria-label="Side">
        {(['BUY', 'SELL'] as const).map((value) => (
          <button key={value} type="button" aria-pressed={side === value} className={value === 'BUY' ? 'buy' : 'sell'} onClick={() => setSide(value)}>{value === 'BUY' ? 'Buy' : 'Sell'}</button>
        ))}
      </div>
      <div className="segmented" role="group" aria-label="Outcome">
        {outcomes.map((label, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the index is the outcome (0 or 1), which is what the key names
          <button key={label + index} type="button" aria-pressed={outcome === index} onClick={() => onOutcome(index as 0 | 1)}>{label}</button>
        ))}
      </div>
      <div className="segmented small" role="group" aria-label="Order kind">
        <button type="button" aria-pressed={kind === 'limit'} onClick={() => setKind('limit')}>Limit</button>
        <button type="button" aria-pressed={kind === 'market'} onClick={() => setKind('market')}>Market</button>
      </div>
      <label>
        <span>{kind === 'limit' ? 'Limit price' : 'Worst price'} <small className="muted">tick {market.tickSize}</small></span>
        <input name="price" inputMode="decimal" autoComplete="off" placeholder="0.50" value={price} onChange={(e) => setPrice(e.target.value.trim())} required />
      </label>
      <label>
        <span>Shares</span>
        <input name="size" inputMode="decimal" autoComplete="off" placeholder="10" value={size} onChange={(e) => setSize(e.target.value.trim())} required />
      </label>
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
        <dt>{side === 'BUY' ? 'Cost' : 'Proceeds'}</dt><dd>{preview ? money(preview.notional) : '—'}</dd>
        <dt>Fee (at most)</dt><dd>{preview ? money(preview.fee) : '—'}</dd>
        <dt>Shares</dt><dd>{preview ? amount(preview.amounts.sizeBaseUnits) : '—'}</dd>
        <dt>{side === 'BUY' ? 'Payout if it wins' : 'Net of fee'}</dt><dd>{preview ? money(preview.payout) : '—'}</dd>
      </dl>
      {problem && <p className="error" role="alert" data-testid="ticket-problem">{problem}</p>}
      {wallet ? (
        <button type="submit" className={`primary wide ${side === 'BUY' ? 'buy' : 'sell'}`} disabled={busy || !preview || !tokenId || market.status !== 'ACTIVE'}>
          {busy ? 'Signing…' : `${side === 'BUY' ? 'Buy' : 'Sell'} ${outcomes[outcome]}${price ? ` at ${cents(price)}` : ''}`}
        </button>
      ) : (
        <p className="muted">Sign in to trade.</p>
      )}
      {answer && <p className={answer.ok ? 'ok' : 'error'} role="status" data-testid="ticket-answer">{answer.text}</p>}
    </form>
  );
}

function previewOf(market: Market, side: Side, price: string, size: string, postOnly: boolean): Preview {
  const amounts = orderAmounts(side, price, size, market.tickSize);
  const rate = postOnly ? market.passiveOrderFeeRateBps : Math.max(market.orderFeeRateBps, market.passiveOrderFeeRateBps);
  const fee = feeBaseUnits(rate, Number(amounts.priceMicros), amounts.sizeBaseUnits);
  const notional = side === 'BUY' ? amounts.makerAmount : amounts.takerAmount;
  return { amounts, notional, fee, payout: side === 'BUY' ? amounts.sizeBaseUnits : notional - fee };
}
