import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import secp256k1 from 'secp256k1';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ORDER_TYPES } from '../../src/client/orders/eip712.ts';
import { parseConfig } from '../../src/config.ts';
import { createOrderHasher, orderDomains, type OrderStruct } from '../../src/core/orders/eip712-order.ts';
import { recoverSigner, verifySignature } from '../../src/engine/signatures/recover-signer.ts';
import { QueueFullError } from '../../src/engine/queue-full-error.ts';
import { createSignatureVerifier } from '../../src/engine/signatures/signature-verifier.ts';
import { OTHER, ZERO, account, caller } from '../helpers/order-fixtures.ts';

type Hex = `0x${string}`;

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const domain = orderDomains(parseConfig({})).exchange;
const hashOrder = createOrderHasher(domain);

const order: OrderStruct = {
  salt: 42n, maker: caller.proxyWallet, signer: caller.address, taker: ZERO, tokenId: 2n ** 255n + 11n,
  makerAmount: 500_000n, takerAmount: 1_000_000n, expiration: 0n, nonce: 0n, feeRateBps: 100n, side: 0, signatureType: 1,
};
const signOrder = (o: OrderStruct, signer = account) => signer.signTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: o });

const parts = (signature: Hex) => ({ r: BigInt(signature.slice(0, 66)), s: BigInt(`0x${signature.slice(66, 130)}`), v: Number.parseInt(signature.slice(130), 16) });
const join = (r: bigint, s: bigint, v: number): Hex =>
  `0x${r.toString(16).padStart(64, '0')}${s.toString(16).padStart(64, '0')}${v.toString(16).padStart(2, '0')}`;

describe('signature recovery (native secp256k1)', () => {
  it('recovers the signer of a viem signTypedData order signature', async () => {
    const signature = await signOrder(order);
    assert.equal(recoverSigner(hashOrder(order), signature), caller.address.toLowerCase());
    assert.equal(verifySignature(hashOrder(order), signature, caller.address), true);
  });

  it('recovers random signers over random digests', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (bytes) => {
      const signer = privateKeyToAccount(generatePrivateKey());
      const digest = `0x${Buffer.from(bytes).toString('hex')}` as Hex;
      assert.equal(verifySignature(digest, await signer.sign({ hash: digest }), signer.address), true);
    }), { numRuns: 30 });
  });

  it('fails for another signer and for a tampered field', async () => {
    const signature = await signOrder(order);
    assert.equal(verifySignature(hashOrder(order), signature, OTHER), false);
    for (const tampered of [{ ...order, makerAmount: 500_001n }, { ...order, side: 1 as const }, { ...order, maker: caller.address }]) {
      assert.equal(verifySignature(hashOrder(tampered), signature, caller.address), false);
    }
    const other = privateKeyToAccount(generatePrivateKey());
    assert.equal(verifySignature(hashOrder(order), await signOrder(order, other), caller.address), false);
  });

  it('rejects the high-s twin that libsecp256k1 alone would accept', async () => {
    const { r, s, v } = parts(await signOrder(order));
    const twin = join(r, CURVE_ORDER - s, v === 27 ? 28 : 27);
    const raw = Buffer.from(twin.slice(2, 130), 'hex');
    const recovered = secp256k1.ecdsaRecover(raw, parts(twin).v - 27, Buffer.from(hashOrder(order).slice(2), 'hex'), false);
    assert.equal(recovered.length, 65, 'the twin does recover the same key without the low-s rule');
    assert.equal(verifySignature(hashOrder(order), twin, caller.address), false);
  });

  it('accepts v 27 and 28 only (0/1 never settle on chain)', async () => {
    const { r, s, v } = parts(await signOrder(order));
    assert.ok(v === 27 || v === 28);
    for (const badV of [v - 27, 29, 0xff]) assert.equal(verifySignature(hashOrder(order), join(r, s, badV), caller.address), false, `v ${badV}`);
  });

  it('answers false, never throws, for malformed input', async () => {
    const signature = await signOrder(order);
    const { r, s, v } = parts(signature);
    const digest = hashOrder(order);
    const cases: [Hex, Hex][] = [
      [digest, join(0n, s, v)],
      [digest, join(r, 0n, v)],
      [digest, join(CURVE_ORDER, s, v)],
      [digest, signature.slice(0, 130) as Hex],
      [digest, `${signature}00` as Hex],
      [digest, `0x${'zz'.repeat(65)}`],
      [digest.slice(0, 64) as Hex, signature],
      ['0x' as Hex, signature],
    ];
    for (const [d, sig] of cases) assert.equal(verifySignature(d, sig, caller.address), false, sig);
  });
});

describe('signature verifier', () => {
  const digest = hashOrder(order);
  let signature: Hex;
  const open: { close(): Promise<void> }[] = [];
  after(() => Promise.all(open.map((v) => v.close())));
  const verifier = (options: Parameters<typeof createSignatureVerifier>[0]) => {
    const created = createSignatureVerifier(options);
    open.push(created);
    return created;
  };

  it('verifies in-thread with workers: 0', async () => {
    signature = await signOrder(order);
    const inThread = verifier({ workers: 0 });
    assert.equal(inThread.workers, 0);
    assert.equal(await inThread.verify(digest, signature, caller.address), true);
    assert.equal(await inThread.verify(digest, signature, OTHER), false);
  });

  it('starts TypeScript worker threads under tsx and answers each request in order', async () => {
    signature ??= await signOrder(order);
    const pool = verifier({ workers: 2 });
    assert.equal(pool.workers, 2);
    const expected = Array.from({ length: 500 }, (_, i) => i % 3 !== 0);
    const results = await Promise.all(expected.map((valid) => pool.verify(digest, signature, valid ? caller.address : OTHER)));
    assert.deepEqual(results, expected);
    // A second wave after the first has drained reuses the same workers.
    assert.equal(await pool.verify(digest, signature, caller.address), true);
  });

  it('defaults to one worker per CPU', async () => {
    const { availableParallelism } = await import('node:os');
    assert.equal(verifier({}).workers, availableParallelism());
  });

  it('rejects with a 503 QueueFullError past maxQueue, and serves again once drained', async () => {
    signature ??= await signOrder(order);
    const pool = verifier({ workers: 1, maxQueue: 3 });
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => pool.verify(digest, signature, caller.address)));
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    const error = (settled[3] as PromiseRejectedResult).reason;
    assert.ok(error instanceof QueueFullError);
    assert.equal(error.statusCode, 503);
    assert.equal(error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(await pool.verify(digest, signature, caller.address), true);
  });

  it('rejects requests after close', async () => {
    const pool = createSignatureVerifier({ workers: 1 });
    await pool.close();
    await assert.rejects(pool.verify(digest, signature, caller.address), /closed/);
  });

  it('refuses nonsense options', () => {
    assert.throws(() => createSignatureVerifier({ workers: -1 }), RangeError);
    assert.throws(() => createSignatureVerifier({ workers: 0, maxQueue: 0 }), RangeError);
  });
});
