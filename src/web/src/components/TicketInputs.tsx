import { useId } from 'react';
import { formatUnits } from '../../../client/index.ts';
import { units } from '../format.ts';

/**
 * The ticket's number inputs with Polymarket's helpers: a price with − and + steppers of one tick
 * (kept strictly between 0 and 1), and an amount with quick-add buttons.
 */
export function PriceInput({ label, value, tickSize, onChange }: { label: string; value: string; tickSize: string; onChange: (value: string) => void }) {
  const tick = units(tickSize) ?? 10_000n;
  const step = (direction: 1n | -1n) => {
    const current = units(value) ?? 500_000n;
    const next = (current / tick + direction) * tick;
    if (next >= tick && next <= 1_000_000n - tick) onChange(formatUnits(next));
  };
  // The label names the input alone: a label wrapping the steppers would name the first button.
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label} <small className="muted">tick {tickSize}</small></label>
      <span className="stepper">
        <button type="button" onClick={() => step(-1n)} aria-label="One tick lower">−</button>
        <input id={id} name="price" inputMode="decimal" autoComplete="off" placeholder="0.50" value={value} onChange={(e) => onChange(e.target.value.trim())} required />
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
