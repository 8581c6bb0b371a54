import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createDraftEvent, createPublishedEvent, patchMarket } from '../helpers/catalogue.ts';
import { expectError, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited, newTrader, type Trader } from '../helpers/trader.ts';

describe('POST /markets/{marketId}/split', () => {
  let server: TestServer;
  let alice: Trader;
  let market: { id: string; tokenId1: string; tokenId2: string };

  before(async () => {
    server = await startTestServer();
    market = (await createPublishedEvent(server)).markets[0]!;
    alice = await newTrader(server, { fund: '100' });
  });
  after(() => closeAudited(server));

  it('turns collateral into the same amount of both outcome tokens, with a transaction hash', async () => {
    const response = await alice.call('POST', `/markets/${market.id}/split`, { amount: '12.5' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.amount, '12.5');
    assert.match(response.body.txHash, /^0x[0-9a-f]{64}$/);
    const balance = (await alice.call('GET', '/account/balance')).body;
    assert.equal(balance.collateral.balance, '87.5');
    const tokens = Object.fromEntries(balance.tokens.map((t: { tokenId: string; balance: string; outcome: string; marketId: string }) => [t.tokenId, t]));
    assert.deepEqual([tokens[market.tokenId1].balance, tokens[market.tokenId1].outcome, tokens[market.tokenId1].marketId], ['12.5', 'Yes', market.id]);
    assert.deepEqual([tokens[market.tokenId2].balance, tokens[market.tokenId2].outcome], ['12.5', 'No']);
  });

  it('still splits on a paused market', async () => {
    const paused = (await createPublishedEvent(server)).markets[0]!;
    await patchMarket(server, paused.id, { isPaused: true });
    assert.equal((await alice.call('POST', `/markets/${paused.id}/split`, { amount: '1' })).status, 200);
  });

  it('refuses more than the available collateral, zero, too many decimals and negative amounts', async () => {
    expectError(await alice.call('POST', `/markets/${market.id}/split`, { amount: '1000' }), 400, 'INSUFFICIENT_BALANCE');
    for (const amount of ['0', '1.0000001', '-1', 'abc', '']) {
      expectError(await alice.call('POST', `/markets/${market.id}/split`, { amount }), 400, 'VALIDATION_FAILED');
    }
  });

  it('is 404 for unknown and DRAFT markets', async () => {
    expectError(await alice.call('POST', `/markets/${randomUUID()}/split`, { amount: '1' }), 404, 'NOT_FOUND');
    const draft = await createDraftEvent(server);
    expectError(await alice.call('POST', `/markets/${draft.markets[0]!.id}/split`, { amount: '1' }), 404, 'NOT_FOUND');
    expectError(await alice.call('POST', '/markets/not-a-uuid/split', { amount: '1' }), 400, 'VALIDATION_FAILED');
  });

  it('needs API-key HMAC', async () => {
    expectError(await post(server.api(`/markets/${market.id}/split`), { amount: '1' }), 401, 'UNAUTHORIZED');
    expectError(await post(server.api(`/markets/${market.id}/split`), { amount: '1' }, { authorization: `Bearer ${alice.session.token}` }), 401, 'UNAUTHORIZED');
  });
});
