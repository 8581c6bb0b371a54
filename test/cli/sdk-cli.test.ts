import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hmacHex } from '../../src/api/hmac-recipe.ts';
import { useCliFixture } from './pmx.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

/** A command line run by a shell, as a person pastes it (asynchronously: the server runs in this process). */
const sh = (line: string) => promisify(execFile)('sh', ['-c', line], { encoding: 'utf8', timeout: 30_000 });

describe('the CLI through child processes, built on the SDK', { skip: storeIndependent('the CLI') }, () => {
  const cli = useCliFixture('pmx-cli-');
  const { pmx, json } = cli;


  it('runs an operator and two traders through a market: create, publish, credit, trade, book, cancel', async () => {
    const event = await json(['events', 'create', 'CLI event', '--market', 'Rain', '--publish']);
    const market = event.markets[0];
    assert.equal(market.status, 'ACTIVE');

    const maker = await json(['login', '--store-key'], { WHO: 'maker' });
    const taker = await json(['login'], { WHO: 'taker' });
    assert.equal(statSync(join(cli.dir, 'maker.json')).mode & 0o777, 0o600);
    assert.equal((await json(['credit', maker.address, '100'])).balance, '100');
    await json(['credit', taker.address, '100']);

    const resting = await json(['order', 'buy', market.tokenId1, '0.6', '10'], { WHO: 'maker' });
    assert.equal(resting.status, 'PENDING');
    assert.notEqual(resting.signature, '');
    const taking = await json(['order', 'buy', market.tokenId2, '0.4', '4', '--type', 'FAK'], { WHO: 'taker' });
    assert.equal(taking.status, 'EXECUTED');
    assert.notEqual(taking.signature === '', false, 'a login without --store-key places unsigned orders');

    const book = await json(['book', market.tokenId1]);
    assert.deepEqual(book.bids.map((l: { price: string; size: string }) => [l.price, l.size]), [['0.6', '6']]);
    const human = await pmx(['book', market.tokenId1]);
    assert.match(human.stdout, /bid\s+0\.6\s+6/);

    const orders = await json(['orders'], { WHO: 'maker' });
    assert.deepEqual(orders.map((o: { id: string }) => o.id), [resting.id]);
    const cancelled = await json(['cancel', resting.id], { WHO: 'maker' });
    assert.deepEqual(cancelled, [{ orderId: resting.id, success: true }]);
    const balance = await json(['balance'], { WHO: 'taker' });
    assert.equal(balance.tokens[0].balance, '4');
  });

  it('prints tables for people: outcome names, BUY/SELL, one number format, names, slugs, faucet, counts', async () => {
    const event = await json(['events', 'create', 'People event', '--market', 'Sunshine', '--publish']);
    const market = event.markets[0];
    await json(['login', '--store-key'], { WHO: 'alice' });
    await json(['login'], { WHO: 'bob' });
    const faucet = await pmx(['faucet', '50.50'], { WHO: 'alice' });
    assert.equal(faucet.code, 0, faucet.stderr);
    assert.equal(faucet.stdout.trim(), 'received 50.5 USDC; collateral balance 50.5');
    assert.equal((await json(['faucet', '100'], { WHO: 'bob' })).balance, '100');

    const placed = await pmx(['order', 'buy', market.tokenId1, '0.40', '10'], { WHO: 'alice' });
    assert.match(placed.stdout, /^open \S+: BUY 10 Yes, limit 0\.4; nothing filled; resting 10 @ 0\.4$/m);
    await json(['order', 'buy', market.tokenId1, '0.3', '5'], { WHO: 'alice' });
    await json(['order', 'buy', market.tokenId2, '0.6', '4', '--type', 'FAK'], { WHO: 'bob' });
    await cli.server.ctx.trading.engine.settle();

    const orders = (await pmx(['orders'], { WHO: 'alice' })).stdout;
    assert.match(orders, /ID\s+MARKET\s+OUTCOME\s+SIDE\s+PRICE\s+AMOUNT\s+MATCHED\s+STATUS/);
    assert.match(orders, /Sunshine\s+Yes\s+BUY\s+0\.4\s+10\s+4\s+open/);
    const trades = (await pmx(['trades', '--market', market.id])).stdout;
    assert.match(trades, /TIME\s+MARKET\s+OUTCOME\s+SIDE\s+PRICE\s+SIZE\s+STATUS/);
    assert.match(trades, /Sunshine\s+No\s+BUY\s+0\.6\s+4\s+CONFIRMED/);
    assert.doesNotMatch(trades, /Side_[AB]|[0-9a-f]{8}-[0-9a-f]{4}-/, 'no Side_A/Side_B and no internal ids');
    const tape = (await pmx(['trades', '--activity', '--event', event.id])).stdout;
    assert.match(tape, /BUY\s+4\s+No\s+0\.6\s+Sunshine/);
    assert.doesNotMatch(tape, /Side_[AB]|bought|sold/);
    const balance = (await pmx(['balance'], { WHO: 'bob' })).stdout;
    assert.match(balance, /^collateral \(USDC\)\s+97\.6\s+0\s+97\.6$/m);
    assert.match(balance, /^Sunshine: No\s+4\s+0\s+4$/m);
    const activity = (await pmx(['activity', market.id])).stdout;
    assert.doesNotMatch(activity, /0x[0-9a-fA-F]{40}/, 'wallets are shortened');
    const listed = (await pmx(['events', 'list'])).stdout;
    assert.match(listed, /^EVENT \/ MARKET\s+STATUS\s+PRICE$/m);
    assert.match(listed, new RegExp(`^${event.slug}  People event\\n {2}${market.slug}\\s+ACTIVE\\s+Yes 0\\.4$`, 'm'), 'the event, then its market with the price of the first outcome: its last trade');
    for (const line of listed.split('\n')) assert.ok(line.length <= 100, `wider than 100 columns: ${line}`);

    const cancelled = await pmx(['cancel', '--all'], { WHO: 'alice' });
    assert.equal(cancelled.stdout.trim(), 'cancelled 2 open order(s) in 1 market(s)');
    assert.equal((await pmx(['cancel', '--all'], { WHO: 'alice' })).stdout.trim(), 'cancelled 0 open order(s) in 0 market(s)');
  });

  it('takes markets by slug and tokens by market and outcome; an order says its average fill, fees and what rests', async () => {
    const event = await json(['events', 'create', 'Slug event', '--market', 'Hail', '--publish']);
    const slug: string = event.markets[0].slug;
    assert.equal((await json(['market', slug, '--fee-bps', '100'])).orderFeeRateBps, 100);
    const maker = await json(['login', '--store-key'], { WHO: 'slug-maker' });
    const taker = await json(['login', '--store-key'], { WHO: 'slug-taker' });
    await json(['credit', maker.address, '100']);
    await json(['credit', taker.address, '100']);

    const resting = await pmx(['order', 'buy', slug, 'yes', '0.44', '10'], { WHO: 'slug-maker' });
    assert.equal(resting.code, 0, resting.stderr);
    assert.match(resting.stdout, /^open \S+: BUY 10 Yes, limit 0\.44; nothing filled; resting 10 @ 0\.44$/m);
    // Buying No at up to 0.60 meets the Yes bid at 0.44: it fills at 0.56, with 1% of min(p, 1 - p) in fees.
    const taking = await pmx(['order', 'buy', slug, 'No', '0.6', '4'], { WHO: 'slug-taker' });
    assert.equal(taking.code, 0, taking.stderr);
    assert.match(taking.stdout, /^(filled|settling) \S+: BUY 4 No, limit 0\.6; filled 4 @ avg 0\.56, fees 0\.0176 USDC; nothing rests$/m);

    const book = await json(['book', slug, 'yes']);
    assert.deepEqual(book.bids.map((l: { price: string; size: string }) => [l.price, l.size]), [['0.44', '6']]);
    assert.equal((await json(['book', event.markets[0].id, '2'])).asset_id, event.markets[0].tokenId2);
    assert.match((await pmx(['orders', '--market', slug], { WHO: 'slug-maker' })).stdout, /Hail\s+Yes\s+BUY\s+0\.44\s+10\s+4\s+open/);
    assert.equal((await pmx(['history', slug, 'no'])).code, 0);
    assert.equal((await pmx(['oracle', 'status', slug])).code, 0);
    assert.equal((await pmx(['split', slug, '1'], { WHO: 'slug-taker' })).code, 0);

    const noOutcome = await pmx(['book', slug]);
    assert.equal(noOutcome.code, 2);
    assert.match(noOutcome.stderr, new RegExp(`name the outcome after the market: ${slug} yes or ${slug} no`));
    const badOutcome = await pmx(['book', slug, 'maybe']);
    assert.equal(badOutcome.code, 2);
    assert.match(badOutcome.stderr, /"maybe" is not an outcome/);
    const unknown = await pmx(['book', 'no-such-market', 'yes']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404 NOT_FOUND/);
  });

  it('pmx sign prints the HMAC headers of a request, and its --curl commands run as printed', async () => {
    const event = await json(['events', 'create', 'Sign event', '--market', 'Fog', '--publish']);
    const slug: string = event.markets[0].slug;
    const signer = await json(['login', '--store-key'], { WHO: 'signer' });
    await json(['credit', signer.address, '10']);
    const saved = JSON.parse(readFileSync(join(cli.dir, 'signer.json'), 'utf8'));

    const headers = await pmx(['sign', 'GET', '/api/v1/orders?limit=5', '--timestamp', '1767225600000'], { WHO: 'signer' });
    assert.equal(headers.code, 0, headers.stderr);
    const signature = hmacHex(saved.apiKey.secret, '1767225600000', 'GET', '/api/v1/orders', '');
    assert.deepEqual(headers.stdout.trim().split('\n'), [`svc-api-key: ${saved.apiKey.apiKey}`, `svc-signature: ${signature}`, 'svc-timestamp: 1767225600000', `svc-passphrase: ${saved.apiKey.passphrase}`]);

    // The README's recipe: a body from `order --print`, then the curl command, run by a shell.
    const body = await pmx(['order', 'buy', slug, 'yes', '0.3', '2', '--print'], { WHO: 'signer' });
    assert.equal(body.code, 0, body.stderr);
    const curlPost = await pmx(['sign', 'POST', '/api/v1/orders', body.stdout.trim(), '--curl'], { WHO: 'signer' });
    assert.match(curlPost.stdout, /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/orders' \\\n {2}-H 'svc-api-key: /);
    const placed = JSON.parse((await sh(curlPost.stdout)).stdout);
    assert.equal(placed.status, 'PENDING', JSON.stringify(placed));
    assert.equal(placed.tokenId, event.markets[0].tokenId1);
    const curlGet = await pmx(['sign', 'GET', '/orders', '--curl'], { WHO: 'signer' });
    const listed = JSON.parse((await sh(curlGet.stdout)).stdout);
    assert.deepEqual(listed.map((o: { id: string }) => o.id), [placed.id]);
  });

  it('exits 2 on a local refusal and 1 on a server refusal, with the code on stderr', async () => {
    const event = await json(['events', 'create', 'CLI errors', '--market', 'Snow', '--publish']);
    await json(['login'], { WHO: 'errors' });
    const offTick = await pmx(['order', 'buy', event.markets[0].tokenId1, '0.425', '1'], { WHO: 'errors' });
    assert.equal(offTick.code, 2);
    assert.match(offTick.stderr, /ORDER_PRICE_NOT_ON_TICK/);
    const broke = await pmx(['order', 'buy', event.markets[0].tokenId1, '0.5', '10'], { WHO: 'errors' });
    assert.equal(broke.code, 1);
    assert.match(broke.stderr, /INSUFFICIENT_BALANCE/);
    const help = await pmx(['order', 'buy', '--help']);
    assert.match(help.stdout, /Examples:/);
    const badKey = await pmx(['login', '--private-key', '0x1234'], { WHO: 'bad-key' });
    assert.equal(badKey.code, 2);
    assert.equal(badKey.stderr.trim(), 'error: --private-key must be a private key: 0x and 64 hex digits (32 bytes)');
  });
});
