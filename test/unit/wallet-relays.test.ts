// A wallet's requests relayed on chain, at most eight at once on a node, and at most
// WALLET_RELAYS_PER_HOUR in any rolling hour (src/api/wallet-relays.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RollingLimit } from '../../src/api/limits/rolling-limit.ts';
import { WalletRelays } from '../../src/api/wallet-relays.ts';
import { createManualClock } from '../../src/clock.ts';
import { MemoryCounters } from '../../src/shared-state/counters.ts';
import type { AppError } from '../../src/contract/errors.ts';

const WALLET = '0x00000000000000000000000000000000000000aA';
const OTHER = '0x00000000000000000000000000000000000000bb';

/** A request held open until `release`. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => { release = resolve; });
  return { done, release };
}

test("a wallet's ninth request at once is 429 with Retry-After, another wallet's is not, and a slot comes back when one is answered or fails", async () => {
  const relays = new WalletRelays(true);
  const requests = Array.from({ length: 8 }, () => held());
  const running = requests.map((request, i) => relays.one(i % 2 === 0 ? WALLET : WALLET.toLowerCase(), () => request.done));
  await assert.rejects(relays.one(WALLET, async () => 'ninth'), (error: AppError) => error.statusCode === 429 && error.code === 'RATE_LIMITED' && error.headers['retry-after'] === '1');
  assert.equal(await relays.one(OTHER, async () => 'other'), 'other');

  requests[0]!.release();
  await running[0];
  assert.equal(await relays.one(WALLET, async () => 'after one answered'), 'after one answered');
  await assert.rejects(relays.one(WALLET, async () => { throw new Error('the chain refused'); }), /the chain refused/);
  assert.equal(await relays.one(WALLET, async () => 'after one failed'), 'after one failed');
  for (const request of requests) request.release();
  await Promise.all(running);
});

test('off a chain nothing is counted', async () => {
  const relays = new WalletRelays(false);
  const requests = Array.from({ length: 10 }, () => held());
  const running = requests.map((request) => relays.one(WALLET, () => request.done));
  assert.equal(await relays.one(WALLET, async () => 'eleventh'), 'eleventh');
  for (const request of requests) request.release();
  await Promise.all(running);
});

test("a wallet's relays beyond its hourly budget are 429 until its oldest of the hour leaves it; refused ones do not count, another wallet's are not held", async () => {
  const clock = createManualClock(1_000_000);
  const hourly = new RollingLimit(new MemoryCounters(), clock, { counted: 'relays', limit: 2, windowMs: 3_600_000, refusal: 'two an hour' });
  const relays = new WalletRelays(true, hourly);
  const relayed: string[] = [];
  const relay = (wallet: string, what: string) => relays.one(wallet, async () => { relayed.push(what); return what; });
  await relay(WALLET, 'first');
  clock.advance(20 * 60_000);
  await relay(WALLET.toLowerCase(), 'second');
  const refusedAfter = async (seconds: number) => assert.rejects(relay(WALLET, 'refused'), (error: AppError) => error.statusCode === 429 && error.code === 'RATE_LIMITED' && error.headers['retry-after'] === String(seconds) && /two an hour/.test(error.message));
  await refusedAfter(40 * 60);
  assert.equal(await relay(OTHER, 'other'), 'other');
  clock.advance(40 * 60_000 - 1_000);
  await refusedAfter(1);
  clock.advance(1_000);
  assert.equal(await relay(WALLET, 'third'), 'third', 'the first left the hour');
  await refusedAfter(20 * 60);
  assert.deepEqual(relayed, ['first', 'second', 'other', 'third'], 'nothing refused was sent');
});
