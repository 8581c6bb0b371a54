import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadDeployTarget, parseConfig } from '../../src/config.ts';

const OPERATOR_KEY = `0x${'ab'.repeat(32)}`;
const DEPLOYED = {
  EXCHANGE_ADDRESS: '0x1111111111111111111111111111111111111111',
  NEG_RISK_EXCHANGE_ADDRESS: '0x2222222222222222222222222222222222222222',
  COLLATERAL_ADDRESS: '0x3333333333333333333333333333333333333333',
  CONDITIONAL_TOKENS_ADDRESS: '0x4444444444444444444444444444444444444444',
};
const SETTLEMENT_KEYS = { SETTLEMENT_KEY: `0x${'cd'.repeat(32)}`, NEG_RISK_SETTLEMENT_KEY: `0x${'ef'.repeat(32)}` };
const RPC = { CHAIN: 'rpc', CHAIN_RPC_URL: 'https://rpc.example/key', OPERATOR_KEY, ...SETTLEMENT_KEYS, ...DEPLOYED };

function refuses(source: Record<string, string>, mentions: RegExp): ConfigError {
  let caught: unknown;
  assert.throws(() => parseConfig(source), (error: unknown) => {
    caught = error;
    return error instanceof ConfigError && mentions.test(error.message);
  }, JSON.stringify(source));
  return caught as ConfigError;
}

describe('chain configuration (CHAIN, CHAIN_RPC_URL, OPERATOR_KEY, the settlement keys, CONFIRMATIONS, SETTLEMENT_GATHER_MS, MAX_FEE_PER_GAS_GWEI, WITHDRAW_MIN_USDC, WALLET_RELAYS_PER_HOUR)', () => {
  it('defaults to the embedded chain (EXTENSIONS.md section 10), one confirmation, no operator key', () => {
    const config = parseConfig({});
    assert.deepEqual([config.chain, config.chainByDefault], ['embedded', true]);
    assert.equal(config.confirmations, 1);
    assert.equal(config.chainRpcUrl, undefined);
    assert.equal(config.operatorKey, undefined);
  });

  it('takes rpc with its URL, key and the four deployed addresses, and embedded alone', () => {
    const rpc = parseConfig({ ...RPC, CONFIRMATIONS: '12' });
    assert.deepEqual([rpc.chain, rpc.chainRpcUrl, rpc.operatorKey, rpc.confirmations], ['rpc', 'https://rpc.example/key', OPERATOR_KEY, 12]);
    assert.equal(rpc.exchangeAddress, DEPLOYED.EXCHANGE_ADDRESS);
    assert.deepEqual(rpc.settlementKeys, { exchange: SETTLEMENT_KEYS.SETTLEMENT_KEY, negRisk: SETTLEMENT_KEYS.NEG_RISK_SETTLEMENT_KEY });
    assert.equal(rpc.proxyWalletFactoryAddress, undefined);
    const factory = '0x5555555555555555555555555555555555555555';
    assert.equal(parseConfig({ ...RPC, PROXY_WALLET_FACTORY_ADDRESS: factory }).proxyWalletFactoryAddress, factory);
    assert.equal(parseConfig({ CHAIN: 'embedded', CONFIRMATIONS: '0' }).chain, 'embedded');
  });

  it('takes how many transactions the operator relays for a wallet an hour: 60 by default on CHAIN=rpc, no limit elsewhere', () => {
    assert.equal(parseConfig({}).walletRelaysPerHour, 0);
    assert.equal(parseConfig({ CHAIN: 'none' }).walletRelaysPerHour, 0);
    assert.equal(parseConfig(RPC).walletRelaysPerHour, 60);
    assert.equal(parseConfig({ ...RPC, WALLET_RELAYS_PER_HOUR: '0' }).walletRelaysPerHour, 0);
    assert.equal(parseConfig({ WALLET_RELAYS_PER_HOUR: '500' }).walletRelaysPerHour, 500);
    for (const bad of ['-1', '1.5', 'many']) refuses({ WALLET_RELAYS_PER_HOUR: bad }, /WALLET_RELAYS_PER_HOUR/);
  });

  it('takes how long a settlement transaction that is not full gathers matches: 500 ms by default, 0 to 60 s', () => {
    assert.equal(parseConfig({}).settlementGatherMs, 500);
    assert.equal(parseConfig({ ...RPC, SETTLEMENT_GATHER_MS: '2000' }).settlementGatherMs, 2000);
    assert.equal(parseConfig({ SETTLEMENT_GATHER_MS: '0' }).settlementGatherMs, 0);
    for (const bad of ['-1', '60001', '0.5', 'soon']) refuses({ SETTLEMENT_GATHER_MS: bad }, /SETTLEMENT_GATHER_MS/);
  });

  it('takes the least a withdrawal moves in USDC: 1 by default on CHAIN=rpc, where each costs the operator gas, none elsewhere', () => {
    assert.equal(parseConfig({}).withdrawMinBaseUnits, 0n);
    assert.equal(parseConfig({ CHAIN: 'none' }).withdrawMinBaseUnits, 0n);
    assert.equal(parseConfig(RPC).withdrawMinBaseUnits, 1_000_000n);
    assert.equal(parseConfig({ ...RPC, WITHDRAW_MIN_USDC: '0' }).withdrawMinBaseUnits, 0n);
    assert.equal(parseConfig({ WITHDRAW_MIN_USDC: '2.5' }).withdrawMinBaseUnits, 2_500_000n);
    for (const bad of ['-1', '0.0000001', '1e2', 'one']) refuses({ WITHDRAW_MIN_USDC: bad }, /WITHDRAW_MIN_USDC must be a non-negative amount of USDC/);
  });

  it('takes a settlement fee cap in gwei, to the wei; none by default', () => {
    assert.equal(parseConfig({}).maxFeePerGasWei, undefined);
    assert.equal(parseConfig({ ...RPC, MAX_FEE_PER_GAS_GWEI: '250' }).maxFeePerGasWei, 250_000_000_000n);
    assert.equal(parseConfig({ MAX_FEE_PER_GAS_GWEI: '0.000000001' }).maxFeePerGasWei, 1n);
    for (const bad of ['0', '0.0', '-1', '1e3', '1.0000000001', 'lots']) refuses({ MAX_FEE_PER_GAS_GWEI: bad }, /MAX_FEE_PER_GAS_GWEI must be a positive number of gwei/);
  });

  it('refuses each bad value with a message naming the variable', () => {
    refuses({ CHAIN: 'ganache' }, /CHAIN must be one of none, embedded, rpc/);
    refuses({ CONFIRMATIONS: '-1' }, /CONFIRMATIONS/);
    refuses({ CONFIRMATIONS: '1001' }, /CONFIRMATIONS/);
    refuses({ ...RPC, CHAIN_RPC_URL: 'ws://rpc.example' }, /CHAIN_RPC_URL/);
    refuses({ ...RPC, CHAIN_RPC_URL: 'not a url' }, /CHAIN_RPC_URL/);
    refuses({ OPERATOR_KEY: `0x${'00'.repeat(32)}` }, /OPERATOR_KEY/);
    refuses({ OPERATOR_KEY: `0x${'ff'.repeat(32)}` }, /OPERATOR_KEY/);
    refuses({ CHAIN_RPC_URL: 'https://rpc.example' }, /CHAIN_RPC_URL is for CHAIN=rpc/);
    refuses({ ...RPC, SETTLEMENT_KEY: '0x1234' }, /SETTLEMENT_KEY must be a secp256k1 private key/);
    refuses({ ...RPC, NEG_RISK_SETTLEMENT_KEY: `0x${'00'.repeat(32)}` }, /NEG_RISK_SETTLEMENT_KEY must be a secp256k1 private key/);
    refuses({ ...RPC, PROXY_WALLET_FACTORY_ADDRESS: '0x12' }, /PROXY_WALLET_FACTORY_ADDRESS must be a 20-byte hex address/);
  });

  it('refuses settlement keys shared with each other or with the operator: each key is one nonce pipeline', () => {
    refuses({ ...RPC, NEG_RISK_SETTLEMENT_KEY: SETTLEMENT_KEYS.SETTLEMENT_KEY }, /three different keys/);
    refuses({ ...RPC, SETTLEMENT_KEY: OPERATOR_KEY }, /three different keys/);
    // The same key written in another case is the same key.
    refuses({ ...RPC, SETTLEMENT_KEY: OPERATOR_KEY.toUpperCase().replace('0X', '0x') }, /three different keys/);
  });

  it("refuses CHAIN=rpc's own variables on the other chains", () => {
    for (const chain of ['none', 'embedded']) {
      refuses({ CHAIN: chain, ...SETTLEMENT_KEYS }, new RegExp(`SETTLEMENT_KEY, NEG_RISK_SETTLEMENT_KEY are for CHAIN=rpc; CHAIN is ${chain}`));
      refuses({ CHAIN: chain, PROXY_WALLET_FACTORY_ADDRESS: '0x5555555555555555555555555555555555555555' }, /PROXY_WALLET_FACTORY_ADDRESS is for CHAIN=rpc/);
    }
  });

  it('reads what pmx deploy needs, refusing what is missing or bad', () => {
    const target = loadDeployTarget({ env: { CHAIN_RPC_URL: 'http://127.0.0.1:8545', OPERATOR_KEY, CHAIN_ID: '84532' }, envFile: '/nonexistent' });
    assert.deepEqual(target, { chainRpcUrl: 'http://127.0.0.1:8545', operatorKey: OPERATOR_KEY, chainId: 84532, exchangeName: 'PMX Exchange', collateralAddress: undefined, conditionalTokensAddress: undefined });
    const existing = { COLLATERAL_ADDRESS: '0x3333333333333333333333333333333333333333', CONDITIONAL_TOKENS_ADDRESS: '0x4444444444444444444444444444444444444444' };
    const onExisting = loadDeployTarget({ env: { CHAIN_RPC_URL: 'http://127.0.0.1:8545', OPERATOR_KEY, ...existing }, envFile: '/nonexistent' });
    assert.equal(onExisting.collateralAddress?.toLowerCase(), existing.COLLATERAL_ADDRESS);
    assert.equal(onExisting.conditionalTokensAddress?.toLowerCase(), existing.CONDITIONAL_TOKENS_ADDRESS);
    const deployRefuses = (env: Record<string, string>, mentions: RegExp) => assert.throws(() => loadDeployTarget({ env, envFile: '/nonexistent' }), (e: unknown) => e instanceof ConfigError && mentions.test(e.message));
    deployRefuses({}, /pmx deploy needs CHAIN_RPC_URL and OPERATOR_KEY/);
    deployRefuses({ CHAIN_RPC_URL: 'http://127.0.0.1:8545' }, /pmx deploy needs OPERATOR_KEY/);
    deployRefuses({ CHAIN_RPC_URL: 'ws://127.0.0.1:8545', OPERATOR_KEY }, /CHAIN_RPC_URL must start with http: or https:/);
    deployRefuses({ CHAIN_RPC_URL: 'http://127.0.0.1:8545', OPERATOR_KEY: '0xabc' }, /OPERATOR_KEY must be a secp256k1 private key/);
    deployRefuses({ CHAIN_RPC_URL: 'http://127.0.0.1:8545', OPERATOR_KEY, COLLATERAL_ADDRESS: '0x12' }, /COLLATERAL_ADDRESS must be a 20-byte hex address/);
  });

  it('never repeats a refused operator key', () => {
    const almostAKey = `0x${'cd'.repeat(31)}`;
    const error = refuses({ OPERATOR_KEY: almostAKey }, /OPERATOR_KEY/);
    assert.ok(!error.message.includes('cd'.repeat(31)));
  });

  it('refuses rpc without what it needs, naming each missing variable', () => {
    for (const name of Object.keys(RPC).filter((key) => key !== 'CHAIN')) {
      refuses({ ...RPC, [name]: '' }, new RegExp(`CHAIN=rpc needs ${name}`));
    }
  });

  it('refuses configured contract addresses beside the contracts embedded deploys', () => {
    refuses({ CHAIN: 'embedded', EXCHANGE_ADDRESS: DEPLOYED.EXCHANGE_ADDRESS }, /CHAIN=embedded deploys its own contracts.*EXCHANGE_ADDRESS/);
  });

  it('takes CHAIN as set, and contract addresses without CHAIN as the simulated layer\'s domain, as before embedded was the default', () => {
    for (const chain of ['none', 'embedded'] as const) assert.deepEqual([parseConfig({ CHAIN: chain }).chain, parseConfig({ CHAIN: chain }).chainByDefault], [chain, false]);
    const addressed = parseConfig({ EXCHANGE_ADDRESS: DEPLOYED.EXCHANGE_ADDRESS });
    assert.deepEqual([addressed.chain, addressed.chainByDefault], ['none', false]);
  });
});
