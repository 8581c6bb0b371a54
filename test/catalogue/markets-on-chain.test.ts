import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hex } from 'viem';
import { createCatalogue, type MarketsOnChain } from '../../src/catalogue/index.ts';
import { AppError } from '../../src/contract/errors.ts';
import { deriveChainMarketIds } from '../../src/settlement/market-ids.ts';
import { eventInput } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ORACLE = '0x00000000000000000000000000000000000000aa';
const MINED: Hex = `0x${'ab'.repeat(32)}`;

// The catalogue's side of preparing markets on chain, with a stand-in chain that can fail.
describe('publishing with markets on chain', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(() => server.close());

  it('publishes nothing while the chain fails (503), then every market with the ids and transaction it was prepared with', async () => {
    const prepared: string[] = [];
    let failNext = 1;
    const chain: MarketsOnChain = {
      oracle: ORACLE,
      deriveIds: deriveChainMarketIds,
      async prepare(market) {
        // The first market succeeds, the second fails once: a publish that stops halfway.
        if (prepared.length === 1 && failNext-- > 0) throw new Error('anvil is restarting');
        prepared.push(market.conditionId);
        return MINED;
      },
    };
    const { store, clock, config, operatorUserId } = server.ctx;
    const catalogue = createCatalogue({ db: store.db, clock, config, operatorUserId, marketsOnChain: chain });
    const eventId = await catalogue.admin.createEvent(eventInput({ markets: 2 }));

    await assert.rejects(catalogue.admin.publishEvent(eventId), (error: unknown) => error instanceof AppError && error.statusCode === 503 && /anvil is restarting/.test(error.message));
    const draft = await catalogue.reads.getEvent(eventId, { marketLimit: 50 }, true);
    assert.deepEqual([draft.isInitialized, ...draft.markets.map((m) => m.isInitialized)], [false, false, false]);

    await catalogue.admin.publishEvent(eventId);
    const event = await catalogue.reads.getEvent(eventId, { marketLimit: 50 }, true);
    for (const market of event.markets) {
      const ids = deriveChainMarketIds({ marketUuid: market.id, oracle: ORACLE, collateral: config.collateralAddress });
      assert.deepEqual([market.isInitialized, market.conditionId, market.tokenId1, market.tokenId2, market.transactionHash], [true, ids.conditionId, ids.tokenId1, ids.tokenId2, MINED]);
    }
    assert.equal(event.isInitialized, true);
  });
});
