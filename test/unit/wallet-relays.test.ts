// A wallet's requests relayed on chain, at most eight at once on a node (src/api/wallet-relays.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WalletRelays } from '../../src/api/wallet-relays.ts';
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
