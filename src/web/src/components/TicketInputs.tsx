import { type KeyboardEvent, useId } from 'react';
import { formatUnits } from '../../../client/index.ts';
import { units } from '../format.ts';
import { centsText, tickCents, typedMicros } from '../ticket-price.ts';

/** The arrow keys' steps in the price field, as a number input's. */
const ARROWS: Record<string, 1n | -1n> = { ArrowUp: 1n, ArrowDown: -1n };

/**
 * The ticket's number inputs with Polymarket's helpers: a price in cents with − and + steppers
 * (and the arrow keys) of one tick, kept strictly between 0¢ and 100¢, and an amount with
 * quick-add buttons.
 */
export function PriceInput({ label, value, tickSize, onChange }: { label: string; value: string; tickSize: string; onChange: (value: string) => void }) {
  const tick = units(tickSize) ?? 10_000n;
  const step = (direction: 1n | -1n) => {
    const current = typedMicros(value) ?? 500_000n;
    const next = (current / tick + direction) * tick;
    if (next >= tick && next <= 1_000_000n - tick) onChange(centsText(next));
  };
  const arrow = (event: KeyboardEvent) => {
    const direction = ARROWS[event.key];
    if (!direction) return;
    event.preventDefault();
    step(direction);
  };
  // The label names the input alone: a label wrapping the steppers would name the first button.
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label} <small className="muted">in cents, tick {tickCents(tickSize)}¢</small></label>
      <span className="stepper">
        <button type="button" onClick={() => step(-1n)} aria-label="One tick lower">−</button>
        <span className="unit">
          <input id={id} name="price" inputMode="decimal" autoComplete="off" placeholder="50" value={value} onChange={(e) => onChange(e.target.value.trim().replace(/¢$/, ''))} onKeyDown={arrow} required />
          <span aria-hidden="true">¢</span>
        </span>
        <button type="button" onClick={() => step(1n)} aria-label="One tick higher">+</button>
      </span>
    </div>
  );
}

/** An amount field and buttons that add to it (`adds`: decimal strings; `prefix`: "$" for dollars). */
export function AmountInput({ label, name, value, adds, prefix = '', onChange }: { label: string; name: string; value: string; adds: string[]; prefix?: string; onChange: (value: string) => void }) {
  const add = (more: string) => onChange(formatUnits((units(value) ?? 0n) + (units(more) ?? 0n)));
  return (
    <div className="amount">
      <label>
        <span>{label}</span>
        <input name={name} inputMode="decimal" autoComplete="off" placeholder={prefix ? `${prefix}0` : '0'} value={value} onChange={(e) => onChange(e.target.value.trim().replace(/^\$/, ''))} required />
      </label>
      <div className="quick" role="group" aria-label="Quick add">
        {adds.map((more) => <button key={more} type="button" onClick={() => add(more)}>+{prefix}{more}</button>)}
      </div>
    </div>
  );
}
