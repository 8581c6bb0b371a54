import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCliFixture } from './pmx.ts';

describe('the CLI through child processes, built on the SDK', () => {
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
  });
});
