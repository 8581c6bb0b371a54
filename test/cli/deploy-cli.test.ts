import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildOutput } from '../../src/build-output.ts';
import { chainSettlementSetup, chainTemplateFiles, startChain } from '../../src/chain/index.ts';
import { parseConfig } from '../../src/config.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { type Anvil, startAnvil } from '../helpers/anvil.ts';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';
import { freePort } from '../helpers/process-server.ts';
import { fundedKeys } from '../helpers/rpc-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

const exec = promisify(execFile);

/** The built `pmx` with only `env` of the chain's variables (nothing of the test process's leaks in), its exit code and output. */
async function pmx(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BUILT_CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The `NAME=value` lines of pmx deploy's output (`.env` syntax), comments left out. */
function variablesOf(stdout: string): Record<string, string> {
  const lines = stdout.split('\n').filter((line) => /^[A-Z_]+=/.test(line));
  return Object.fromEntries(lines.map((line) => {
    const [name, value] = line.split(/=(.*)/s) as [string, string];
    return [name, value.replace(/^"(.*)"$/, '$1')];
  }));
}

describe('pmx deploy', { skip: storeIndependent('the CLI') }, () => {
  let anvil: Anvil;
  let operatorKey: Hex;
  before(async () => {
    ensureBuild();
    anvil = await startAnvil();
    [operatorKey] = (await fundedKeys(anvil, 1)) as [Hex];
  });
  after(() => anvil?.stop());

  it("deploys the contracts with OPERATOR_KEY as admin and operator, and prints the variables a CHAIN=rpc server boots on", { timeout: 120_000 }, async () => {
    const deployed = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey });
    assert.equal(deployed.code, 0, deployed.stderr);
    const variables = variablesOf(deployed.stdout);
    assert.deepEqual(Object.keys(variables), ['CHAIN', 'CHAIN_ID', 'EXCHANGE_NAME', 'EXCHANGE_ADDRESS', 'NEG_RISK_EXCHANGE_ADDRESS', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS', 'PROXY_WALLET_FACTORY_ADDRESS']);
    assert.deepEqual([variables.CHAIN, variables.CHAIN_ID, variables.EXCHANGE_NAME], ['rpc', '31337', 'PMX Exchange']);
    const operator = privateKeyToAccount(operatorKey).address;
    for (const exchange of [variables.EXCHANGE_ADDRESS, variables.NEG_RISK_EXCHANGE_ADDRESS] as Address[]) {
      const call = { address: exchange, abi: loadArtifact('PmxExchange').abi };
      assert.equal(await anvil.publicClient.readContract({ ...call, functionName: 'isAdmin', args: [operator] }), true);
      assert.equal(await anvil.publicClient.readContract({ ...call, functionName: 'isOperator', args: [operator] }), true);
      assert.equal(await anvil.publicClient.readContract({ ...call, functionName: 'proxyWalletFactory' }), variables.PROXY_WALLET_FACTORY_ADDRESS);
    }
    for (const name of ['COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS']) {
      assert.ok((await anvil.publicClient.getCode({ address: variables[name] as Address }))?.length, `${name} holds code`);
    }

    // A server's chain boots on exactly what was printed, with the keys the comment asks for.
    const [settlement, negRisk] = await fundedKeys(anvil, 2);
    const config = parseConfig({ ...variables, CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey, SETTLEMENT_KEY: settlement!, NEG_RISK_SETTLEMENT_KEY: negRisk! });
    const chain = await startChain(config, { template: chainTemplateFiles(buildOutput), logger: pino({ level: 'silent' }) });
    try {
      assert.equal(chain.deployed?.proxyWalletFactory, variables.PROXY_WALLET_FACTORY_ADDRESS);
      assert.ok(await chainSettlementSetup(chain, config));
    } finally {
      await chain.close();
    }
  });

  it('gives a server that cannot use what was printed one line and exit code 1: settlement keys no admin made operators', { timeout: 120_000 }, async () => {
    const deployed = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey });
    const [notAdmin, settlement, negRisk] = (await fundedKeys(anvil, 3)) as [Hex, Hex, Hex];
    const settler = privateKeyToAccount(settlement).address;
    const env = { ...variablesOf(deployed.stdout), CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: notAdmin, SETTLEMENT_KEY: settlement, NEG_RISK_SETTLEMENT_KEY: negRisk, DATA_DIR: 'memory://', PORT: String(await freePort()), LOG_LEVEL: 'silent' };
    const refused = await pmx(['serve'], env);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`^configuration error: SETTLEMENT_KEY's address ${settler} is not an operator of the exchange .* setOperator\\(${settler}, true\\)`, 'm'));
  });

  it('prints the deployment as JSON with --json, under the configured EXCHANGE_NAME', { timeout: 120_000 }, async () => {
    const deployed = await pmx(['deploy', '--json', '--exchange-name', 'Other Exchange'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey });
    assert.equal(deployed.code, 0, deployed.stderr);
    const deployment = JSON.parse(deployed.stdout);
    assert.equal(deployment.deployer, privateKeyToAccount(operatorKey).address);
    assert.equal(deployment.exchangeName, 'Other Exchange');
    assert.deepEqual(Object.keys(deployment.contracts).sort(), ['chainId', 'collateral', 'conditionalTokens', 'exchange', 'negRiskExchange', 'proxyWalletFactory', 'proxyWalletImplementation', 'proxyWalletInitCodeHash']);
  });

  it('builds on an existing collateral and ConditionalTokens named by COLLATERAL_ADDRESS and CONDITIONAL_TOKENS_ADDRESS', { timeout: 120_000 }, async () => {
    const first = variablesOf((await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey })).stdout);
    const existing = { COLLATERAL_ADDRESS: first.COLLATERAL_ADDRESS!, CONDITIONAL_TOKENS_ADDRESS: first.CONDITIONAL_TOKENS_ADDRESS! };
    const deployed = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey, ...existing });
    assert.equal(deployed.code, 0, deployed.stderr);
    const variables = variablesOf(deployed.stdout);
    assert.deepEqual([variables.COLLATERAL_ADDRESS, variables.CONDITIONAL_TOKENS_ADDRESS], [existing.COLLATERAL_ADDRESS, existing.CONDITIONAL_TOKENS_ADDRESS]);
    assert.notEqual(variables.EXCHANGE_ADDRESS, first.EXCHANGE_ADDRESS, 'the exchanges are new');
    for (const [name, address] of [['PmxExchange', variables.EXCHANGE_ADDRESS], ['PmxExchange', variables.NEG_RISK_EXCHANGE_ADDRESS], ['ProxyWalletFactory', variables.PROXY_WALLET_FACTORY_ADDRESS]] as const) {
      const call = { address: address as Address, abi: loadArtifact(name).abi };
      assert.equal(await anvil.publicClient.readContract({ ...call, functionName: 'collateral' }), existing.COLLATERAL_ADDRESS, `${name} uses the existing collateral`);
      assert.equal(await anvil.publicClient.readContract({ ...call, functionName: 'conditionalTokens' }), existing.CONDITIONAL_TOKENS_ADDRESS, `${name} uses the existing ConditionalTokens`);
    }
  });

  it('refuses, deploying nothing, an existing contract that is not what it says: no code, or no ERC-20 or ConditionalTokens behind the address', { timeout: 120_000 }, async () => {
    const first = variablesOf((await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey })).stdout);
    const blockBefore = await anvil.publicClient.getBlockNumber();
    const base = { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey };
    const empty = '0x000000000000000000000000000000000000dEaD';
    const noCode = await pmx(['deploy'], { ...base, COLLATERAL_ADDRESS: empty });
    assert.equal(noCode.code, 1);
    assert.match(noCode.stderr, new RegExp(`COLLATERAL_ADDRESS ${empty} holds no contract on this chain`));
    const notErc20 = await pmx(['deploy'], { ...base, COLLATERAL_ADDRESS: first.CONDITIONAL_TOKENS_ADDRESS! });
    assert.equal(notErc20.code, 1);
    assert.match(notErc20.stderr, /COLLATERAL_ADDRESS 0x[0-9a-fA-F]{40} does not answer decimals\(\): it is not an ERC-20 token/);
    const notConditionalTokens = await pmx(['deploy'], { ...base, CONDITIONAL_TOKENS_ADDRESS: first.COLLATERAL_ADDRESS! });
    assert.equal(notConditionalTokens.code, 1);
    assert.match(notConditionalTokens.stderr, /CONDITIONAL_TOKENS_ADDRESS 0x[0-9a-fA-F]{40} does not answer payoutDenominator\(\): it is not a ConditionalTokens contract/);
    const badAddress = await pmx(['deploy'], { ...base, COLLATERAL_ADDRESS: '0x12' });
    assert.match(badAddress.stderr, /COLLATERAL_ADDRESS must be a 20-byte hex address/);
    assert.equal(await anvil.publicClient.getBlockNumber(), blockBefore, 'nothing was sent');
  });

  it('refuses, deploying nothing, without its variables or on an endpoint of another chain', async () => {
    const missing = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /configuration error: pmx deploy needs OPERATOR_KEY/);
    const badKey = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: '0x1234' });
    assert.match(badKey.stderr, /OPERATOR_KEY must be a secp256k1 private key/);
    const blockBefore = await anvil.publicClient.getBlockNumber();
    const otherChain = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operatorKey, CHAIN_ID: '137' });
    assert.equal(otherChain.code, 1);
    assert.match(otherChain.stderr, /CHAIN_RPC_URL serves chain id 31337, not CHAIN_ID=137/);
    assert.equal(await anvil.publicClient.getBlockNumber(), blockBefore, 'nothing was sent');
  });

  it('says in one line, naming the address and its balance, that OPERATOR_KEY cannot pay the gas: refused before sending with nothing, or when it runs out', async () => {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    const blockBefore = await anvil.publicClient.getBlockNumber();
    const empty = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: key });
    assert.equal(empty.code, 1);
    assert.equal(empty.stderr, `configuration error: OPERATOR_KEY's address ${address} holds 0 of chain 31337's native currency, too little for the deployment's gas (nothing was sent): fund that address and run pmx deploy again\n`);
    assert.equal(await anvil.publicClient.getBlockNumber(), blockBefore, 'nothing was sent');
    // One wei: past the first check, short at the first transaction (viem's error: hundreds of lines of bytecode).
    await anvil.testClient.setBalance({ address, value: 1n });
    const short = await pmx(['deploy'], { CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: key });
    assert.equal(short.code, 1);
    assert.deepEqual(short.stderr.trim().split('\n'), [
      "deploying the exchange's contracts to chain 31337…",
      `configuration error: OPERATOR_KEY's address ${address} holds 0.000000000000000001 of chain 31337's native currency, too little for the deployment's gas (any contract this run deployed before it ran out is left unused): fund that address and run pmx deploy again`,
    ]);
  });

  it('documents what it reads and prints in --help', async () => {
    const help = await pmx(['deploy', '--help'], {});
    for (const name of ['CHAIN_RPC_URL', 'OPERATOR_KEY', 'CHAIN_ID', 'EXCHANGE_NAME', 'PROXY_WALLET_FACTORY_ADDRESS', 'SETTLEMENT_KEY', 'NEG_RISK_SETTLEMENT_KEY', 'COLLATERAL_ADDRESS', 'CONDITIONAL_TOKENS_ADDRESS']) assert.match(help.stdout, new RegExp(name));
  });
});
