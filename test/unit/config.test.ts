import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { clientAddressOf, ConfigError, configVariables, deployVariables, parseConfig, proxyTrust, unknownFlags } from '../../src/config.ts';

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
    assert.equal(config.databaseTimeoutMs, 30_000);
    assert.equal(config.advertiseUrl, undefined);
    assert.deepEqual(config.siweDomains, []);
    assert.equal(config.apiKeyEncryptionKeyPrevious, undefined);
    assert.deepEqual(config.rateLimitOrders, [{ limit: 3500, windowMs: 10_000 }, { limit: 36_000, windowMs: 600_000 }]);
    assert.deepEqual(config.rateLimitRequests, [{ limit: 5000, windowMs: 10_000 }]);
    assert.deepEqual(config.rateLimitPublic, [{ limit: 1000, windowMs: 10_000 }]);
    assert.deepEqual(parseConfig({ RATE_LIMIT_PUBLIC: 'off' }).rateLimitPublic, []);
    assert.deepEqual(config.publicUrls, []);
    assert.deepEqual(config.trustProxy, { hops: 0 });
    assert.equal(config.socketsPerAddress, 1000);
    assert.equal(config.apiKeysPerUser, 50);
    assert.ok(Object.isFrozen(config));
  });

  it('parses the security variables: rate windows or off, sign-in hosts, proxy trust, bounds', () => {
    const config = parseConfig({
      RATE_LIMIT_ORDERS: 'OFF',
      RATE_LIMIT_REQUESTS: '10/2s, 20/1h',
      RATE_LIMIT_PUBLIC: '1000/10s',
      SIWE_DOMAINS: 'Exchange.Example.com, other.example:8443',
      PUBLIC_URL: 'https://Exchange.Example/, http://other.example:8080',
      TRUST_PROXY: 'true',
      SOCKETS_PER_ADDRESS: '0',
      API_KEYS_PER_USER: '5',
      API_KEY_ENCRYPTION_KEY_PREVIOUS: 'AB'.repeat(32),
    });
    assert.deepEqual(config.rateLimitOrders, []);
    assert.deepEqual(config.rateLimitRequests, [{ limit: 10, windowMs: 2_000 }, { limit: 20, windowMs: 3_600_000 }]);
    assert.deepEqual(config.rateLimitPublic, [{ limit: 1000, windowMs: 10_000 }]);
    assert.deepEqual(config.siweDomains, ['exchange.example.com', 'other.example:8443']);
    assert.deepEqual(config.publicUrls, ['https://exchange.example', 'http://other.example:8080']);
    assert.deepEqual(config.trustProxy, { hops: 1 });
    assert.deepEqual(parseConfig({ TRUST_PROXY: '2' }).trustProxy, { hops: 2 });
    assert.deepEqual(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,::1' }).trustProxy, { addresses: ['10.0.0.0/8', '192.0.2.7', '::1'] });
    assert.equal(config.socketsPerAddress, 0);
    assert.equal(config.apiKeysPerUser, 5);
    assert.equal(config.apiKeyEncryptionKeyPrevious, 'ab'.repeat(32));
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
      DATABASE_TIMEOUT_MS: '500',
      ADVERTISE_URL: 'ftp://node-a',
      RATE_LIMIT_ORDERS: '3500',
      RATE_LIMIT_REQUESTS: '10/500ms',
      RATE_LIMIT_PUBLIC: '0/10s',
      SIWE_DOMAINS: 'https://exchange.example.com',
      PUBLIC_URL: 'https://exchange.example/app',
      TRUST_PROXY: '10.0.0.0/40',
      SOCKETS_PER_ADDRESS: '-1',
      API_KEYS_PER_USER: '0',
      API_KEY_ENCRYPTION_KEY_PREVIOUS: 'short',
    };
    for (const [name, value] of Object.entries(cases)) {
      assert.throws(() => parseConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && e.message.includes(name), name);
    }
  });

  it('never repeats a URL that does not parse: it may hold a password or a key', () => {
    for (const name of ['CHAIN_RPC_URL', 'DATABASE_URL', 'REDIS_URL']) {
      const value = 'https//rpc.example/v2/secret-key-123';
      assert.throws(() => parseConfig({ CHAIN: 'rpc', [name]: value }), (e: unknown) => e instanceof ConfigError && e.message.includes(name) && !e.message.includes('secret-key-123'), name);
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

describe('configuration flags (`--port 4000` for PORT)', () => {
  it("are the variables of the README's configuration table, every one read whatever the others say, and pmx deploy's own", () => {
    // A variable read only under some condition would be learnt missing, and its flag refused.
    const section = readFileSync('README.md', 'utf8').split('\n## Configuration')[1]!.split('\n## ')[0]!;
    const documented = section.split('\n').filter((line) => line.startsWith('| ')).flatMap((line) => [...line.split('|')[1]!.matchAll(/\b[A-Z][A-Z0-9_]{2,}\b/g)].map((m) => m[0]));
    assert.deepEqual([...new Set(documented)].sort(), configVariables().sort());
    assert.deepEqual(deployVariables().sort(), ['CHAIN_ID', 'CHAIN_RPC_URL', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS', 'EXCHANGE_NAME', 'OPERATOR_KEY']);
  });

  it('are told from a flag that names nothing read, with or without a value, inline or not', () => {
    const argv = ['serve', '--port', '3001', '--Data-Dir=./x', '--demo', '--prot', '3001', '--verbose', '--log-levl=debug'];
    assert.deepEqual(unknownFlags(argv, ['--demo'], configVariables()), ['--prot', '--verbose', '--log-levl']);
  });
});

describe('the client address behind proxies (TRUST_PROXY, issue 38)', () => {
  it('is the rightmost X-Forwarded-For entry not added by a trusted proxy, never one the client wrote', () => {
    // nginx appends: the client wrote "1.1.1.1", the proxy at 10.0.0.2 appended the real 203.0.113.9.
    const forwarded = '1.1.1.1, 203.0.113.9';
    assert.equal(clientAddressOf('10.0.0.2', forwarded, proxyTrust({ hops: 1 })), '203.0.113.9');
    assert.equal(clientAddressOf('10.0.0.2', forwarded, proxyTrust({ addresses: ['10.0.0.0/8'] })), '203.0.113.9');
    assert.equal(clientAddressOf('10.0.0.2', forwarded, proxyTrust({ hops: 0 })), '10.0.0.2');
    // Two proxies (a CDN, then nginx) append two entries.
    assert.equal(clientAddressOf('10.0.0.2', '1.1.1.1, 203.0.113.9, 198.51.100.4', proxyTrust({ hops: 2 })), '203.0.113.9');
    assert.equal(clientAddressOf('::ffff:10.0.0.2', '1.1.1.1, 203.0.113.9', proxyTrust({ addresses: ['10.0.0.2'] })), '203.0.113.9');
    // A request that came straight from a client, not through the listed proxy: its header is ignored.
    assert.equal(clientAddressOf('203.0.113.50', forwarded, proxyTrust({ addresses: ['10.0.0.0/8'] })), '203.0.113.50');
  });
});
