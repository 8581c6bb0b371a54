import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCatalogue, createMarketDirectory, type Catalogue } from '../../src/catalogue/index.ts';
import { updateMarket } from '../../src/store/catalogue-markets-repository.ts';
import { eventInput } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('catalogue service hooks and the engine market directory', () => {
  let server: TestServer;
  let catalogue: Catalogue;
  const changes: string[][] = [];
  before(async () => {
    server = await startTestServer();
    const { store, clock, config, operatorUserId } = server.ctx;
    catalogue = createCatalogue({ db: store.db, clock, config, operatorUserId, onMarketsChanged: async (ids) => { changes.push(ids); } });
  });
  after(async () => { await server.close(); });

  it('tells the listener of published markets and of patched markets, after they commit', async () => {
    changes.length = 0;
    const eventId = await catalogue.admin.createEvent(eventInput({ markets: 2 }));
    assert.equal(changes.length, 0, 'creating drafts changes nothing the engine trades');
    const directory = createMarketDirectory(server.ctx.store.db);
    const seen: number[] = [];
    catalogue = createCatalogue({
      db: server.ctx.store.db, clock: server.ctx.clock, config: server.ctx.config, operatorUserId: server.ctx.operatorUserId,
      onMarketsChanged: async (ids) => {
        changes.push(ids);
        // Called after commit: the directory already sees the new state.
        for (const id of ids) seen.push((await directory.load(id)) ? 1 : 0);
      },
    });
    await catalogue.admin.publishEvent(eventId);
    const event = await catalogue.reads.getEvent(eventId, { marketLimit: 50 }, true);
    const ids = event.markets.map((m) => m.id);
    assert.deepEqual(changes, [ids]);
    assert.deepEqual(seen, [1, 1]);
    await catalogue.admin.publishEvent(eventId);
    assert.equal(changes.length, 1, 'a publish with nothing new tells nobody');
    await catalogue.admin.patchMarket(ids[0]!, { isPaused: true });
    assert.deepEqual(changes[1], [ids[0]]);
    await catalogue.admin.patchMarket(ids[0]!, {});
    assert.equal(changes.length, 2, 'an empty patch tells nobody');
  });

  it('a failing listener reaches the caller, with the change already committed', async () => {
    const failing = createCatalogue({
      db: server.ctx.store.db, clock: server.ctx.clock, config: server.ctx.config, operatorUserId: server.ctx.operatorUserId,
      onMarketsChanged: async () => { throw new Error('engine down'); },
    });
    const eventId = await failing.admin.createEvent(eventInput());
    await assert.rejects(failing.admin.publishEvent(eventId), /engine down/);
    assert.equal((await failing.reads.getEvent(eventId, { marketLimit: 50 }, false)).eventStatus, 'ACTIVE');
  });

  it('loads published markets for the engine (with their event\'s oracle reward), never drafts, and loadActive leaves RESOLVED out', async () => {
    const directory = createMarketDirectory(server.ctx.store.db);
    const draftId = await catalogue.admin.createEvent(eventInput({ markets: 1 }));
    const draft = await catalogue.reads.getEvent(draftId, { marketLimit: 50 }, true);
    assert.equal(await directory.load(draft.markets[0]!.id), undefined);
    assert.equal(await directory.load('00000000-0000-4000-8000-000000000000'), undefined);

    const eventId = await catalogue.admin.createEvent({ ...eventInput({ markets: 2, negRisk: true, orderFeeRateBps: 30, passiveOrderFeeRateBps: 10 }), reward: '1.5', markets: [{ name: 'A', tickSize: '0.001', speedBumpDelayMs: 200 }, { name: 'B' }] });
    await catalogue.admin.publishEvent(eventId);
    const [a, b] = (await catalogue.reads.getEvent(eventId, { marketLimit: 50 }, true)).markets;
    assert.deepEqual(await directory.load(a!.id), {
      id: a!.id, eventId, status: 'ACTIVE', isPaused: false, isResolved: false, negRisk: true,
      tokenId1: a!.tokenId1, tokenId2: a!.tokenId2, conditionId: a!.conditionId, outcome1: 'Yes', outcome2: 'No',
      tickSize: '0.001', orderFeeRateBps: 30, passiveOrderFeeRateBps: 10, speedBumpDelayMs: 200, oracleReward: '1500000',
    });
    await updateMarket(server.ctx.store.db, b!.id, { status: 'RESOLVED', is_resolved: true });
    const active = (await directory.loadActive()).map((m) => m.id);
    assert.ok(active.includes(a!.id));
    assert.ok(!active.includes(b!.id));
    assert.ok(!active.includes(draft.markets[0]!.id));
    assert.equal((await directory.load(b!.id))?.status, 'RESOLVED');
  });
});
