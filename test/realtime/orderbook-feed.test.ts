import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CONNECTION } from '../../src/realtime/subscription-requests.ts';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import { connectInbox, startRealtimeNode, TIMESTAMP_MS, tokenId, type Inbox, type RealtimeNode } from './helpers.ts';

const MARKET = `0x${'cd'.repeat(32)}`;
const A = tokenId(1);
const B = tokenId(2);
const C = tokenId(3);

describe('orderbook feed (default namespace)', { timeout: 20_000 }, () => {
  let node: RealtimeNode;
  const inboxes = new OpenInboxes();
  const client = () => inboxes.connect(node.url);

  before(async () => {
    node = await startRealtimeNode();
    for (const token of [A, B, C]) node.books.addToken(token, MARKET);
    node.books.change(A, [{ price: '0.4', side: 'buy', size: '100' }, { price: '0.6', side: 'sell', size: '50' }]);
  });
  after(async () => {
    inboxes.closeAll();
    await node.close();
  });

  it('answers one orderbook snapshot per token, with seq, in request order', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [A, B]);
    assert.deepEqual(await inbox.expect('orderbook'), node.books.snapshot(A));
    const snapshotA = node.books.snapshot(A)!;
    assert.equal(snapshotA.seq, 1);
    assert.deepEqual(snapshotA.bids, [{ price: '0.4', size: '100' }]);
    assert.deepEqual(await inbox.expect('orderbook'), { ...node.books.snapshot(B), seq: 0 });
  });

  it('streams orderbook-price-change with the next seq and the hash of the book after it', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [A]);
    const snapshot = await inbox.expect('orderbook');
    node.books.change(A, [{ price: '0.4', side: 'buy', size: '0' }, { price: '0.45', side: 'buy', size: '20' }]);
    assert.deepEqual(await inbox.expect('orderbook-price-change'), {
      market: MARKET,
      asset_id: A,
      seq: snapshot.seq + 1,
      hash: node.books.snapshot(A)!.hash,
      timestamp: TIMESTAMP_MS + snapshot.seq + 1,
      changes: [{ price: '0.4', side: 'buy', size: '0' }, { price: '0.45', side: 'buy', size: '20' }],
    });
  });

  it('sends last-trade-price to the subscribers of that token', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [B]);
    await inbox.expect('orderbook');
    node.events.publish('last-trade-price', { marketId: MARKET, assetId: A, price: '0.45', side: 'buy', timestampMs: TIMESTAMP_MS });
    node.events.publish('last-trade-price', { marketId: MARKET, assetId: B, price: '0.55', side: 'sell', timestampMs: TIMESTAMP_MS });
    assert.deepEqual(await inbox.expect('last-trade-price'), { market: MARKET, asset_id: B, price: '0.55', side: 'sell', timestamp: TIMESTAMP_MS });
  });

  it('sends nothing about tokens the connection did not subscribe to', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [B]);
    await inbox.expect('orderbook');
    node.books.change(A, [{ price: '0.3', side: 'buy', size: '1' }]);
    node.books.change(C, [{ price: '0.3', side: 'buy', size: '1' }]);
    node.books.change(B, [{ price: '0.3', side: 'buy', size: '1' }]);
    assert.equal((await inbox.expect('orderbook-price-change')).asset_id, B);
  });

  it('orderbook-market-connect again answers a fresh snapshot, and the stream continues from it', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [C]);
    await inbox.expect('orderbook');
    node.books.change(C, [{ price: '0.7', side: 'sell', size: '5' }]);
    const change = await inbox.expect('orderbook-price-change');
    inbox.emit('orderbook-market-connect', [C]);
    const fresh = await inbox.expect('orderbook');
    assert.equal(fresh.seq, change.seq);
    assert.deepEqual(fresh, node.books.snapshot(C));
    node.books.change(C, [{ price: '0.7', side: 'sell', size: '0' }]);
    assert.equal((await inbox.expect('orderbook-price-change')).seq, fresh.seq + 1);
  });

  it('orderbook-market-disconnect stops the stream of those tokens only, and ignores tokens not subscribed', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [A, B]);
    await inbox.expect('orderbook');
    await inbox.expect('orderbook');
    inbox.emit('orderbook-market-disconnect', [A, C]);
    // The disconnect is processed before the next request, whose answer proves it arrived.
    inbox.emit('orderbook-market-connect', [B]);
    await inbox.expect('orderbook');
    node.books.change(A, [{ price: '0.2', side: 'buy', size: '3' }]);
    node.books.change(B, [{ price: '0.2', side: 'buy', size: '3' }]);
    assert.equal((await inbox.expect('orderbook-price-change')).asset_id, B);
  });

  it('counts a token repeated in one call once', async () => {
    const inbox = await client();
    inbox.emit('orderbook-market-connect', [A, A]);
    assert.equal((await inbox.expect('orderbook')).asset_id, A);
    node.books.change(A, [{ price: '0.25', side: 'buy', size: '9' }]);
    assert.equal((await inbox.expect('orderbook-price-change')).asset_id, A);
  });
});

describe('subscription-error', { timeout: 20_000 }, () => {
  let node: RealtimeNode;
  let inbox: Inbox;
  const KNOWN = Array.from({ length: MAX_TOKENS_PER_CONNECTION + 1 }, (_, i) => tokenId(1000 + i));
  const UNKNOWN = tokenId(999);

  before(async () => {
    node = await startRealtimeNode();
    for (const token of KNOWN) node.books.addToken(token, MARKET);
    inbox = await connectInbox(node.url);
  });
  after(async () => {
    inbox.close();
    await node.close();
  });

  /** The connection still works and holds exactly the subscriptions it had: a change on `subscribed` arrives next. */
  async function assertUsableAndUnchanged(subscribed: string, notSubscribed: string[]): Promise<void> {
    for (const token of notSubscribed) node.books.change(token, [{ price: '0.5', side: 'buy', size: '1' }]);
    node.books.change(subscribed, [{ price: '0.5', side: 'buy', size: '2' }]);
    assert.equal((await inbox.expect('orderbook-price-change')).asset_id, subscribed);
  }

  it('refuses an unknown token id and subscribes none of the call', async () => {
    inbox.emit('orderbook-market-connect', [KNOWN[0]]);
    await inbox.expect('orderbook');
    inbox.emit('orderbook-market-connect', [KNOWN[1], UNKNOWN]);
    assert.deepEqual(await inbox.expect('subscription-error'), {
      event: 'orderbook-market-connect',
      code: 'NOT_FOUND',
      message: 'unknown token ids',
      tokenIds: [UNKNOWN],
    });
    await assertUsableAndUnchanged(KNOWN[0]!, [KNOWN[1]!]);
  });

  it(`refuses more than ${MAX_TOKENS_PER_CALL} token ids in one call`, async () => {
    const tooMany = KNOWN.slice(1, MAX_TOKENS_PER_CALL + 2);
    inbox.emit('orderbook-market-connect', tooMany);
    const error = await inbox.expect('subscription-error');
    assert.equal(error.event, 'orderbook-market-connect');
    assert.equal(error.code, 'VALIDATION_FAILED');
    assert.match(error.message, /at most 100 token ids per call, got 101/);
    assert.deepEqual(error.tokenIds, tooMany);
    await assertUsableAndUnchanged(KNOWN[0]!, [KNOWN[1]!]);
  });

  it(`accepts exactly ${MAX_TOKENS_PER_CALL} in one call and refuses token number ${MAX_TOKENS_PER_CONNECTION + 1} on the connection`, async () => {
    // KNOWN[0] is subscribed already; four calls of 100 and one of 99 reach 500.
    for (let start = 1; start < MAX_TOKENS_PER_CONNECTION; start += MAX_TOKENS_PER_CALL) {
      const batch = KNOWN.slice(start, Math.min(start + MAX_TOKENS_PER_CALL, MAX_TOKENS_PER_CONNECTION));
      inbox.emit('orderbook-market-connect', batch);
      for (const token of batch) assert.equal((await inbox.expect('orderbook')).asset_id, token);
    }
    const last = KNOWN[MAX_TOKENS_PER_CONNECTION]!;
    inbox.emit('orderbook-market-connect', [KNOWN[0], last]);
    const error = await inbox.expect('subscription-error');
    assert.equal(error.code, 'VALIDATION_FAILED');
    assert.match(error.message, /at most 500 tokens per connection: 500 subscribed, 1 more asked/);
    assert.deepEqual(error.tokenIds, [last]);
    // Re-asking for tokens already held stays possible at the limit.
    inbox.emit('orderbook-market-connect', [KNOWN[0]]);
    assert.equal((await inbox.expect('orderbook')).asset_id, KNOWN[0]);
    await assertUsableAndUnchanged(KNOWN[0]!, [last]);
    // Leaving one makes room for another.
    inbox.emit('orderbook-market-disconnect', [KNOWN[1]]);
    inbox.emit('orderbook-market-connect', [last]);
    assert.equal((await inbox.expect('orderbook')).asset_id, last);
  });

  const malformed: [string, unknown[], string[]][] = [
    ['no payload', [], []],
    ['a string instead of an array', [KNOWN[0]], []],
    ['an object', [{ tokenIds: [KNOWN[0]] }], []],
    ['null', [null], []],
    ['a non-numeric id', [[KNOWN[0], '0xabc']], ['0xabc']],
    ['an empty string id', [['']], ['']],
    ['a number id', [[12345]], []],
    ['a negative id', [['-5']], ['-5']],
    ['an id of 79 digits', [['1'.repeat(79)]], ['1'.repeat(79)]],
    ['a nested array', [[[KNOWN[0]]]], []],
  ];
  for (const [name, args, tokenIds] of malformed) {
    it(`refuses a malformed orderbook-market-connect: ${name}`, async () => {
      inbox.emit('orderbook-market-connect', ...args);
      const error = await inbox.expect('subscription-error');
      assert.equal(error.event, 'orderbook-market-connect');
      assert.equal(error.code, 'VALIDATION_FAILED');
      assert.deepEqual(error.tokenIds, tokenIds);
      assert.equal(typeof error.message, 'string');
      await assertUsableAndUnchanged(KNOWN[0]!, []);
    });
  }

  it('closes a connection that sends a message above 64 KiB', async () => {
    const flooding = await connectInbox(node.url);
    const disconnected = new Promise((resolve) => flooding.socket.once('disconnect', resolve));
    flooding.emit('orderbook-market-connect', Array.from({ length: 1_000 }, () => '9'.repeat(78)));
    assert.equal(await disconnected, 'transport close');
  });

  it('refuses a malformed orderbook-market-disconnect and keeps the subscriptions', async () => {
    inbox.emit('orderbook-market-disconnect', KNOWN[0]);
    const error = await inbox.expect('subscription-error');
    assert.equal(error.event, 'orderbook-market-disconnect');
    assert.equal(error.code, 'VALIDATION_FAILED');
    await assertUsableAndUnchanged(KNOWN[0]!, []);
  });

  it(`refuses an orderbook-market-disconnect with an unknown token id or more than ${MAX_TOKENS_PER_CALL} ids, and leaves none of them`, async () => {
    inbox.emit('orderbook-market-disconnect', [KNOWN[0], UNKNOWN]);
    assert.deepEqual(await inbox.expect('subscription-error'), { event: 'orderbook-market-disconnect', code: 'NOT_FOUND', message: 'unknown token ids', tokenIds: [UNKNOWN] });
    await assertUsableAndUnchanged(KNOWN[0]!, []);
    const tooMany = [KNOWN[0]!, ...KNOWN.slice(1, MAX_TOKENS_PER_CALL + 1)];
    inbox.emit('orderbook-market-disconnect', tooMany);
    const error = await inbox.expect('subscription-error');
    assert.deepEqual([error.event, error.code, error.message], ['orderbook-market-disconnect', 'VALIDATION_FAILED', `at most ${MAX_TOKENS_PER_CALL} token ids per call, got ${MAX_TOKENS_PER_CALL + 1}`]);
    await assertUsableAndUnchanged(KNOWN[0]!, []);
  });
});

describe('a book source that fails', { timeout: 20_000 }, () => {
  it('logs the failure, answers nothing for that request and keeps the connection and the process up', async () => {
    const node = await startRealtimeNode();
    const inbox = await connectInbox(node.url);
    try {
      node.books.addToken(A, MARKET);
      const snapshot = node.books.snapshot.bind(node.books);
      node.books.snapshot = (tokenId) => {
        if (tokenId === B) throw new Error('book index corrupted');
        return snapshot(tokenId);
      };
      inbox.emit('orderbook-market-connect', [B]);
      inbox.emit('orderbook-market-connect', [A]);
      assert.equal((await inbox.expect('orderbook')).asset_id, A);
      assert.ok(node.logger.entries.some((entry) => entry.level === 'error' && entry.message === 'real-time request failed'));
    } finally {
      inbox.close();
      await node.close();
    }
  });
});
