import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = parseConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDir, './data');
    assert.equal(config.headerPrefix, 'svc');
    assert.equal(config.chainId, 31337);
    assert.equal(config.clock, 'real');
    assert.equal(config.faucetEnabled, false);
    assert.equal(config.hmacWindowMs, 30_000);
    assert.equal(config.positionBatchMax, 50);
    assert.equal(config.tradeActivityMinUsd, 0);
    assert.equal(config.rewardsMinPayoutUsdc, 1);
    assert.equal(config.logLevel, 'info');
    assert.ok(Object.isFrozen(config));
  });

  it('rejects bad values with a message naming the variable', () => {
    const cases: Record<string, string> = {
      PORT: 'abc',
      CHAIN_ID: '0',
      CLOCK: 'fast',
      FAUCET_ENABLED: 'maybe',
      POSITION_BATCH_MAX: '201',
      DATABASE_URL: 'mysql://x',
      EXCHANGE_ADDRESS: '0x123',
      LOG_LEVEL: 'loud',
      HEADER_PREFIX: 'Bad Prefix',
      TRADE_ACTIVITY_MIN_USD: '-1',
    };
    for (const [name, value] of Object.entries(cases)) {
      assert.throws(() => parseConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && e.message.includes(name), name);
    }
  });

  it('reads PRICE_FEED and PRICE_FEED_URL: manual by default, a pull feed needs its URL', () => {
    const defaults = parseConfig({});
    assert.deepEqual([defaults.priceFeed, defaults.priceFeedUrl], ['manual', undefined]);
    const pyth = parseConfig({ PRICE_FEED: 'pyth', PRICE_FEED_URL: 'https://hermes.pyth.network' });
    assert.deepEqual([pyth.priceFeed, pyth.priceFeedUrl], ['pyth', 'https://hermes.pyth.network']);
    assert.equal(parseConfig({ PRICE_FEED: 'binance', PRICE_FEED_URL: 'http://127.0.0.1:9000/' }).priceFeed, 'binance');
    const refused: Record<string, string>[] = [
      { PRICE_FEED: 'chainlink' },
      { PRICE_FEED: 'pyth' },
      { PRICE_FEED: 'binance', PRICE_FEED_URL: ' ' },
      { PRICE_FEED: 'pyth', PRICE_FEED_URL: 'hermes.pyth.network' },
      { PRICE_FEED: 'binance', PRICE_FEED_URL: 'ftp://api.binance.com' },
    ];
    for (const source of refused) {
      assert.throws(() => parseConfig(source), (e: unknown) => e instanceof ConfigError && /PRICE_FEED/.test(e.message), JSON.stringify(source));
    }
  });
});
