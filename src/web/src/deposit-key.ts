import { useRef } from 'react';

/**
 * The idempotency key of an operator's deposit form (a credit, the reward treasury's): kept while
 * the same values are sent again after an error, so a deposit whose answer was lost (a timeout, a
 * 503 naming a sent transaction) is made once however often the operator presses the button;
 * forgotten once one is answered, so the next deposit of the same values is a new one.
 */
export function useDepositKey(): { keyFor(values: string): string; answered(): void } {
  const pending = useRef<{ values: string; key: string } | null>(null);
  return {
    keyFor(values) {
      if (pending.current?.values !== values) pending.current = { values, key: randomUuid() };
      return pending.current.key;
    },
    answered() {
      pending.current = null;
    },
  };
}

/** A version 4 UUID. `crypto.randomUUID` exists only in secure contexts, and the app may be served over plain HTTP on a network. */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
