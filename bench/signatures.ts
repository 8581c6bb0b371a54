/**
 * Order-signature costs, measured in one run: `npx tsx bench/signatures.ts`.
 * Compares what order entry could spend per order (DESIGN.md "Signatures off the hot thread"):
 * viem's pure-JS recover, the native recover on one thread, the worker pool on every core,
 * HMAC-SHA256 (what API-key authentication costs), our EIP-712 order hasher against viem's, and
 * the ledger's transaction hash (settlement rounds take one per trade). With BENCH_REFERENCE=<another
 * checkout>, that checkout's order hasher and ledger hash are measured in the same run, from its
 * sources.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { hashTypedData, recoverAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ORDER_TYPES } from '../src/client/orders/eip712.ts';
import { parseConfig } from '../src/config.ts';
import { createOrderHasher, orderDomains, type OrderStruct } from '../src/core/orders/eip712-order.ts';
import { transactionHash } from '../src/settlement/embedded/hashes.ts';
import { verifySignature } from '../src/engine/signatures/recover-signer.ts';
import { createSignatureVerifier } from '../src/engine/signatures/signature-verifier.ts';


const RUN_MS = Number(process.env.BENCH_MS ?? 1_500);

const domain = orderDomains(parseConfig({})).exchange;
const hashOrder = createOrderHasher(domain);
const account = privateKeyToAccount(generatePrivateKey());

function randomOrder(i: number): OrderStruct {
  return {
    salt: BigInt(`0x${randomBytes(32).toString('hex')}`), maker: account.address, signer: account.address,
    taker: '0x0000000000000000000000000000000000000000', tokenId: BigInt(`0x${randomBytes(32).toString('hex')}`),
    makerAmount: BigInt(500_000 + i * 100), takerAmount: 1_000_000n, expiration: 0n, nonce: 0n, feeRateBps: 0n, side: 0, signatureType: 0,
  };
}

/** Runs `fn` repeatedly for about RUN_MS and answers operations per second (awaiting only promises). */
async function perSecond(fn: (i: number) => unknown): Promise<number> {
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < RUN_MS) {
    for (let k = 0; k < 50; k++) {
      const result = fn(count++);
      if (result instanceof Promise) await result;
    }
  }
  return Math.round((count * 1000) / (performance.now() - start));
}

const orders = Array.from({ length: 256 }, (_, i) => randomOrder(i));
const digests = orders.map((o) => hashOrder(o));
const signatures = await Promise.all(digests.map((hash) => account.sign({ hash })));
const at = (i: number) => i % orders.length;

const results: [string, number][] = [];
const record = (name: string, rate: number) => {
  results.push([name, rate]);
  console.log(`${name.padEnd(44)} ${rate.toLocaleString('en-US').padStart(12)} /s`);
};

console.log(`order signatures, ${RUN_MS} ms per measurement, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)}\n`);
record('EIP-712 order hash, ours', await perSecond((i) => hashOrder(orders[at(i)]!)));
const reference = process.env.BENCH_REFERENCE;
if (reference) {
  const theirs = await import(join(reference, 'src/core/orders/eip712-order.ts')) as typeof import('../src/core/orders/eip712-order.ts');
  const hashTheirs = theirs.createOrderHasher(domain);
  if (hashTheirs(orders[0]!) !== digests[0]) throw new Error('the reference hasher disagrees');
  record('EIP-712 order hash, reference build', await perSecond((i) => hashTheirs(orders[at(i)]!)));
}
record('EIP-712 order hash, viem hashTypedData', await perSecond((i) => hashTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: orders[at(i)]! })));
record('recover, viem recoverAddress (pure JS)', await perSecond((i) => recoverAddress({ hash: digests[at(i)]!, signature: signatures[at(i)]! })));
record('recover + compare, native, one thread', await perSecond((i) => verifySignature(digests[at(i)]!, signatures[at(i)]!, account.address)));

const pool = createSignatureVerifier({ maxQueue: 100_000 });
await Promise.all(Array.from({ length: pool.workers * 4 }, (_, i) => pool.verify(digests[at(i)]!, signatures[at(i)]!, account.address))); // start-up
const poolStart = performance.now();
let verified = 0;
while (performance.now() - poolStart < RUN_MS) {
  const wave = await Promise.all(Array.from({ length: 2_000 }, (_, i) => pool.verify(digests[at(i)]!, signatures[at(i)]!, account.address)));
  if (!wave.every(Boolean)) throw new Error('a valid signature failed to verify');
  verified += wave.length;
}
record(`recover + compare, pool of ${pool.workers} workers`, Math.round((verified * 1000) / (performance.now() - poolStart)));
await pool.close();

/** A trade's ledger transaction as a settlement round hashes it: two parties' legs, the market's lock. */
const ledgerTransaction = (i: number) => ({
  seq: BigInt(i), kind: 'TRADE_MINT', ref: '5f1c8327-7a17-4f45-a0ce-93662a233449', createdAtMs: 1_764_000_000_000 + i,
  entries: [
    { account: account.address, asset: 'COLLATERAL', amount: -5_000_000n, reason: 'TRADE_PAY' },
    { account: account.address, asset: '35544535709790556568293463628638975403061769320491936413494270121656645514404', amount: 10_000_000n, reason: 'TRADE_RECEIVE' },
    { account: '0xff7bfd2421d25244b984636235e8cd6f0fabb504', asset: 'COLLATERAL', amount: -5_000_000n, reason: 'TRADE_PAY' },
    { account: '0xff7bfd2421d25244b984636235e8cd6f0fabb504', asset: '91', amount: 10_000_000n, reason: 'TRADE_RECEIVE' },
    { account: 'market-lock:0x1234', asset: 'COLLATERAL', amount: 10_000_000n, reason: 'MINT_LOCK' },
  ],
});
record('ledger transaction hash, ours', await perSecond((i) => transactionHash(ledgerTransaction(i))));
if (reference) {
  const theirs = await import(join(reference, 'src/settlement/embedded/hashes.ts')) as typeof import('../src/settlement/embedded/hashes.ts');
  if (theirs.transactionHash(ledgerTransaction(1)) !== transactionHash(ledgerTransaction(1))) throw new Error('the reference ledger hash disagrees');
  record('ledger transaction hash, reference build', await perSecond((i) => theirs.transactionHash(ledgerTransaction(i))));
}

const secret = randomBytes(32);
const message = `${Date.now()}POST/api/v1/orders${JSON.stringify({ salt: '1', tokenId: '2', makerAmount: '500000', takerAmount: '1000000' })}`;
record('HMAC-SHA256 (API-key request signature)', await perSecond(() => createHmac('sha256', secret).update(message).digest('base64')));

const rate = (name: string) => results.find(([n]) => n.startsWith(name))![1];
console.log(`\nour hasher is ${(rate('EIP-712 order hash, ours') / rate('EIP-712 order hash, viem')).toFixed(1)}x viem's; native recover is ${(rate('recover + compare, native') / rate('recover, viem')).toFixed(1)}x viem's`);
