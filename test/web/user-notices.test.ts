/** What the web app says of a `/user` message (src/web/src/user-notices.ts), without a browser. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserMessage } from '../../src/client/index.ts';
import { noticeMarket, userNotice } from '../../src/web/src/user-notices.ts';

const ME = '0x00000000000000000000000000000000000000a1';
const mine = (address: string | null) => address === ME;

describe('web app notices of the /user feed', () => {
  it("says a trade the trader took at its market's tick, and nothing of someone else's", () => {
    const trade = (taker: string): UserMessage => ({ type: 'trade-update', data: { market: 'm1', status: 'MATCHED', taker, size: '10', price: '0.415' } });
    assert.equal(noticeMarket(trade(ME)), 'm1');
    assert.equal(userNotice(trade(ME), '0.0001', mine), 'Trade matched: 10.00 at 41.50¢');
    assert.equal(userNotice(trade('0x00000000000000000000000000000000000000b2'), '0.0001', mine), undefined);
  });

  it('says a tripped market-maker protection as such, where it read "Reward claim updated"', () => {
    const tripped: UserMessage = { type: 'mmp-triggered', data: { scope: { eventId: 'e1' }, trippedAt: '2026-12-06T12:00:00.000Z', frozenUntil: '2026-12-06T12:00:30.000Z' } };
    const said = userNotice(tripped, undefined, mine)!;
    assert.match(said, /^Market-maker protection tripped in an event: an API key's orders there were cancelled, and its new ones are refused until /);
    assert.equal(noticeMarket(tripped), undefined);
    assert.equal(userNotice({ type: 'user-reward-claim-update', data: {} }, undefined, mine), 'Reward claim updated');
  });
});
