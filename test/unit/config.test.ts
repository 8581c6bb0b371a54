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
    assert.equal(config.failoverTimeoutMs, 5_000);
    assert.equal(config.advertiseUrl, undefined);
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
      FAILOVER_TIMEOUT_MS: '100',
      ADVERTISE_URL: 'ftp://node-a',
    };
    for (const [name, value] of Object.entries(cases)) {
      assert.throws(() => parseConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && e.message.includes(name), name);
    }
  });
});
