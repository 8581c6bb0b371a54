import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeOrderLine, OrderLineReader } from '../../src/engine/state/order-lines.ts';
import type { EngineOrder } from '../../src/engine/state/types.ts';

const id = fc.uuid();
const amount = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 2n ** 80n }));
const order: fc.Arbitrary<EngineOrder> = fc.record({
  id, userId: fc.constantFrom('u-1', 'user-0f3c2b1a-2222-4000-8000-000000000001'), account: fc.constantFrom('0x00000000000000000000000000000000000000a1', '0xab'),
  apiKey: fc.option(id, { nil: null }), marketId: id, tokenId: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String), outcome: fc.constantFrom(0 as const, 1 as const),
  side: fc.constantFrom('BUY' as const, 'SELL' as const), type: fc.constantFrom('GTC' as const, 'FOK' as const, 'FAK' as const), postOnly: fc.boolean(),
  priceMicros: fc.integer({ min: 1, max: 999_999 }), sizeBaseUnits: amount, expirationSec: fc.integer({ min: 0, max: 2 ** 40 }), takerFeeBps: fc.integer({ min: 0, max: 1000 }),
  makerFeeBps: fc.integer({ min: 0, max: 1000 }), bookSeq: amount, createdAtMs: fc.integer({ min: 0, max: 2 ** 45 }), matchedBaseUnits: amount,
  status: fc.constantFrom('PENDING' as const, 'EXECUTING' as const), delayedUntilMs: fc.option(fc.integer({ min: 0, max: 2 ** 45 }), { nil: null }),
  updatedAtMs: fc.integer({ min: 0, max: 2 ** 45 }), unsigned: fc.constantFrom(true as const, undefined),
}).map((o) => ({ ...o }) as EngineOrder);

/** Reads every `O` line of `text` as the snapshot decoder does: in place, between the line's ends. */
function readAll(text: string): EngineOrder[] {
  const reader = new OrderLineReader();
  const orders: EngineOrder[] = [];
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    orders.push(reader.read(text, start + 1, end));
    start = end + 1;
  }
  return orders;
}

describe('a snapshot’s open-order lines', () => {
  it('read back every order as written, amounts beyond 2^53, absent keys, speed bumps and unsigned orders included, each line within its own bounds', () => {
    fc.assert(fc.property(fc.array(order, { minLength: 1, maxLength: 20 }), (orders) => {
      const text = orders.map((o) => `O${encodeOrderLine(o)}\n`).join('');
      assert.deepEqual(readAll(text), orders);
    }));
  });

  it('reads a line of the first format (no key field) as an order placed by no key, without reading into the next line', () => {
    // Lines of that format end at the key: no order of theirs is marked unsigned.
    const [a, b] = fc.sample(order, { numRuns: 2, seed: 7 }).map((o) => ({ ...o, apiKey: 'k', unsigned: undefined }));
    const v1Line = encodeOrderLine(a!).replace(/,k$/, '');
    assert.deepEqual(readAll(`O${v1Line}\nO${encodeOrderLine(b!)}\n`), [{ ...a!, apiKey: null }, b]);
  });
});
