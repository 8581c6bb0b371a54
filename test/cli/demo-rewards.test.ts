import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DemoRewards, DEMO_REWARDS } from '../../src/cli/demo-rewards.ts';
import { parseUnits } from '../../src/client/index.ts';
import { adminClient } from '../client/helpers.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The demo's reward pools (src/cli/demo-rewards.ts) on a running exchange: the treasury is funded
 * once for each pool the demo configured, never for a pool the operator's configuration holds, and
 * not again at the next scan. It used to fund every pool before configuring them, stop at the
 * first refusal, and fund them all again every 30 s.
 */
describe('the demo reward pools', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => server?.close());

  it('leaves a frozen day as the operator configured it, funds each pool it configured once, and nothing again', async () => {
    const admin = adminClient(server);
    const [own, other] = (await createPublishedEvent(server, { markets: 2 })).markets;
    const nowMs = Date.now();
    // The operator's pool for today: frozen, as the day's window is open.
    await admin.admin.configureRewards(own!.id, { rewardUsdc: '14.4', maxDistanceFromMid: '0.05', minOrderSizeUsdc: '1' });
    // The treasury's balance, read by the smallest deposit (one base unit).
    const treasury = async () => parseUnits((await admin.admin.fundRewardTreasury('0.000001')).balance)!;
    const pool = parseUnits(DEMO_REWARDS.rewardUsdc)!;

    const demo = new DemoRewards(admin);
    const before = await treasury();
    await demo.ensure([own!.id, other!.id], nowMs);
    // Three pools: the operator's market tomorrow, the other market today and tomorrow.
    assert.equal((await treasury()) - before, 3n * pool + 1n);

    const again = await treasury();
    await demo.ensure([own!.id, other!.id], nowMs);
    assert.equal((await treasury()) - again, 1n, 'nothing funded at the next scan');
  });
});
