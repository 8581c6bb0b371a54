import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config.ts';

const OPERATOR_KEY = `0x${'ab'.repeat(32)}`;
const DEPLOYED = {
  EXCHANGE_ADDRESS: '0x1111111111111111111111111111111111111111',
  NEG_RISK_EXCHANGE_ADDRESS: '0x2222222222222222222222222222222222222222',
  COLLATERAL_ADDRESS: '0x3333333333333333333333333333333333333333',
  CONDITIONAL_TOKENS_ADDRESS: '0x4444444444444444444444444444444444444444',
};
const RPC = { CHAIN: 'rpc', CHAIN_RPC_URL: 'https://rpc.example/key', OPERATOR_KEY, ...DEPLOYED };

function refuses(source: Record<string, string>, mentions: RegExp): ConfigError {
  let caught: unknown;
  assert.throws(() => parseConfig(source), (error: unknown) => {
    caught = error;
    return error instanceof ConfigError && mentions.test(error.message);
  }, JSON.stringify(source));
  return caught as ConfigError;
}

describe('chain configuration (CHAIN, CHAIN_RPC_URL, OPERATOR_KEY, CONFIRMATIONS)', () => {
  it('defaults to no chain, one confirmation, no operator key', () => {
    const config = parseConfig({});
    assert.equal(config.chain, 'none');
    assert.equal(config.confirmations, 1);
    assert.equal(config.chainRpcUrl, undefined);
    assert.equal(config.operatorKey, undefined);
  });

  it('takes rpc with its URL, key and the four deployed addresses, and embedded alone', () => {
    const rpc = parseConfig({ ...RPC, CONFIRMATIONS: '12' });
    assert.deepEqual([rpc.chain, rpc.chainRpcUrl, rpc.operatorKey, rpc.confirmations], ['rpc', 'https://rpc.example/key', OPERATOR_KEY, 12]);
    assert.equal(rpc.exchangeAddress, DEPLOYED.EXCHANGE_ADDRESS);
    assert.equal(parseConfig({ CHAIN: 'embedded', CONFIRMATIONS: '0' }).chain, 'embedded');
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
});
