import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { OpenInboxes } from '../helpers/open-inboxes.ts';
import { startRealtimeNode, type Inbox, type RealtimeNode } from './helpers.ts';

const EVENT_1 = randomUUID();
const EVENT_2 = randomUUID();
const FLOOR_USD = 10;

/** A stand-in TradeActivity row: the module forwards the row unchanged, whatever its fields. */
const activity = (id: string) => ({ id, market: { id: 'm' }, side: 'BUY', price: '0.5', size: '40' });

describe('trade-activity feed', { timeout: 20_000 }, () => {
  let node: RealtimeNode;
  const inboxes = new OpenInboxes();
  const client = () => inboxes.connect(node.url);
  /** Publishes one trade's activity row on the bus, as settlement does when the trade is CONFIRMED. */
  const publish = (id: string, eventId: string | null, notionalUsd = 20) => node.events.publish('trade-activity', { eventId, notionalUsd, activity: activity(id) });

  before(async () => {
    node = await startRealtimeNode({ tradeActivityMinUsd: FLOOR_USD });
  });
  after(async () => {
    inboxes.closeAll();
    await node.close();
  });

  /** An `orderbook-market-connect` refusal is answered in order, so it marks that earlier requests were processed. */
  async function processed(inbox: Inbox): Promise<void> {
    inbox.emit('orderbook-market-connect', 'marker');
    await inbox.expect('subscription-error');
  }

  it('sends nothing before trade-activity-connect', async () => {
    const inbox = await client();
    publish('t0', EVENT_1);
    inbox.emit('trade-activity-connect');
    await processed(inbox);
    publish('t1', EVENT_1);
    assert.deepEqual(await inbox.expect('trade-activity'), activity('t1'));
  });

  it('without eventId (no payload or {}) sends the trades of every market, the row unchanged', async () => {
    for (const args of [[], [{}]]) {
      const inbox = await client();
      inbox.emit('trade-activity-connect', ...args);
      await processed(inbox);
      publish('a1', EVENT_1);
      publish('a2', EVENT_2);
      publish('a3', null);
      assert.deepEqual(await inbox.expect('trade-activity'), activity('a1'));
      assert.deepEqual(await inbox.expect('trade-activity'), activity('a2'));
      assert.deepEqual(await inbox.expect('trade-activity'), activity('a3'));
    }
  });

  it('acknowledges trade-activity-connect when asked: ok once subscribed, the refusal otherwise', async () => {
    const inbox = await client();
    const ack = (payload: unknown) => new Promise((resolve) => inbox.emit('trade-activity-connect', payload, resolve));
    assert.deepEqual(await ack({ eventId: EVENT_2 }), { ok: true });
    publish('k1', EVENT_2);
    assert.deepEqual(await inbox.expect('trade-activity'), activity('k1'));
    const refused = await ack({ eventId: 'not-a-uuid' }) as { ok: boolean; error: { event: string; code: string } };
    assert.equal(refused.ok, false);
    assert.equal(refused.error.event, 'trade-activity-connect');
    assert.equal(refused.error.code, 'VALIDATION_FAILED');
    assert.equal((await inbox.expect('subscription-error') as { code: string }).code, 'VALIDATION_FAILED');
  });

  it('with eventId sends only the trades of that event (the UUID matched case-insensitively)', async () => {
    const inbox = await client();
    inbox.emit('trade-activity-connect', { eventId: EVENT_1.toUpperCase() });
    await processed(inbox);
    publish('b1', EVENT_2);
    publish('b2', null);
    publish('b3', EVENT_1);
    assert.deepEqual(await inbox.expect('trade-activity'), activity('b3'));
  });

  it(`leaves out trades below the notional floor (TRADE_ACTIVITY_MIN_USD=${FLOOR_USD}) and keeps those at it`, async () => {
    const inbox = await client();
    inbox.emit('trade-activity-connect', {});
    await processed(inbox);
    publish('c1', EVENT_1, 9.999999);
    publish('c2', EVENT_1, 10);
    publish('c3', EVENT_1, 0);
    publish('c4', EVENT_1, 10.5);
    assert.deepEqual(await inbox.expect('trade-activity'), activity('c2'));
    assert.deepEqual(await inbox.expect('trade-activity'), activity('c4'));
  });

  it('a second trade-activity-connect replaces the filter, so no trade arrives twice', async () => {
    const inbox = await client();
    inbox.emit('trade-activity-connect', { eventId: EVENT_1 });
    inbox.emit('trade-activity-connect', { eventId: EVENT_2 });
    await processed(inbox);
    publish('d1', EVENT_1);
    publish('d2', EVENT_2);
    assert.deepEqual(await inbox.expect('trade-activity'), activity('d2'));
    inbox.emit('trade-activity-connect');
    await processed(inbox);
    publish('d3', EVENT_2);
    publish('d4', EVENT_1);
    assert.deepEqual(await inbox.expect('trade-activity'), activity('d3'));
    assert.deepEqual(await inbox.expect('trade-activity'), activity('d4'));
  });

  const malformed: [string, unknown][] = [
    ['a bad uuid', { eventId: 'not-a-uuid' }],
    ['a numeric eventId', { eventId: 42 }],
    ['a uuid with a suffix', { eventId: `${EVENT_1}0` }],
    ['an array', [EVENT_1]],
    ['a string', EVENT_1],
  ];
  for (const [name, payload] of malformed) {
    it(`refuses ${name} with subscription-error and keeps the current filter`, async () => {
      const inbox = await client();
      inbox.emit('trade-activity-connect', { eventId: EVENT_1 });
      inbox.emit('trade-activity-connect', payload);
      assert.deepEqual(await inbox.expect('subscription-error'), {
        event: 'trade-activity-connect',
        code: 'VALIDATION_FAILED',
        message: Array.isArray(payload) || typeof payload !== 'object' ? 'the payload must be an object {eventId?: UUID}' : 'eventId must be a UUID',
        tokenIds: [],
      });
      publish('e1', EVENT_2);
      publish('e2', EVENT_1);
      assert.deepEqual(await inbox.expect('trade-activity'), activity('e2'));
    });
  }
});
