// Signs Orders with the TypeScript SDK's own signing path (its ORDER_TYPES and orderDomain, viem's
// signTypedData), for the Python tests and bench to compare against. Reads JSON from stdin:
// {privateKey, exchange, negRisk, orders: [Order message with decimal strings], repeat?}
// and writes [{hash, signature}] (or, with repeat, the signing rate of the SDK's buildOrder).
import { readFileSync } from 'node:fs';
import { hashTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const sdk = await import(new URL('../../../packages/client/dist/client/index.js', import.meta.url).href);
const input = JSON.parse(readFileSync(0, 'utf8'));
const account = privateKeyToAccount(input.privateKey);
const domain = sdk.orderDomain(input.exchange, input.negRisk);

if (input.bench) {
  // The SDK's whole path for one order: amounts with the tick rules, salt, EIP-712 signature.
  const { market, count } = input.bench;
  const signer = { account, proxyWallet: input.proxyWallet };
  const spec = { tokenId: market.tokenId1, side: 'BUY', price: '0.42', size: '10' };
  for (let i = 0; i < 50; i++) await sdk.buildOrder(spec, market, input.exchange, signer); // warm-up
  const started = performance.now();
  for (let i = 0; i < count; i++) await sdk.buildOrder(spec, market, input.exchange, signer);
  process.stdout.write(JSON.stringify({ ordersPerSecond: count / ((performance.now() - started) / 1000) }));
} else {
  const out = [];
  for (const order of input.orders) {
    const message = Object.fromEntries(Object.entries(order).map(([k, v]) => [k, ['maker', 'signer', 'taker'].includes(k) ? v : k === 'side' || k === 'signatureType' ? Number(v) : BigInt(v)]));
    const typed = { domain, types: sdk.ORDER_TYPES, primaryType: 'Order', message };
    out.push({ hash: hashTypedData(typed), signature: await account.signTypedData(typed) });
  }
  process.stdout.write(JSON.stringify(out));
}
