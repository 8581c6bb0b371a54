import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { getAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { buildOutput } from '../../src/build-output.ts';
import { chainSettlementSetup, chainTemplateFiles, deployExchangeContracts, startChain } from '../../src/chain/index.ts';
import { ConfigError, parseConfig } from '../../src/config.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { crossPairs, expectSettledOnChain, untilEveryTradeSettled } from '../helpers/chain-settlement.ts';
import { get } from '../helpers/http.ts';
import { fundedKeys, startRpcChain, type RpcChain } from '../helpers/rpc-chain.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { expectAuditClean, newTrader } from '../helpers/trader.ts';
import { withdrawBody } from '../helpers/withdrawals.ts';

const USDC = 1_000_000n;
const abi = { exchange: loadArtifact('PmxExchange').abi, collateral: loadArtifact('LocalCollateral').abi, factory: loadArtifact('ProxyWalletFactory').abi, ctf: loadArtifact('ConditionalTokens').abi };

/**
 * CHAIN=rpc (EXTENSIONS.md section 14) on a chain the server does not run: an anvil that mines a
 * block a second on its own, as a public chain does, with the contracts deployed by a key of the
 * operator's own. Everything CHAIN=embedded does on chain works here too.
 */
describe('CHAIN=rpc: the server on contracts deployed elsewhere', { skip: storeIndependent('the chain') }, () => {
  let rpc: RpcChain;
  let server: TestServer;
  const read = <T>(address: Address, contract: keyof typeof abi, functionName: string, args: readonly unknown[] = []) =>
    rpc.anvil.publicClient.readContract({ address, abi: abi[contract], functionName, args }) as Promise<T>;

  before(async () => {
    rpc = await startRpcChain(['--block-time', '1']);
    server = await startTestServer(rpc.env);
  });
  after(async () => {
    await server?.close();
    await rpc?.anvil.stop();
  });

  it('boots on the configured contracts: their addresses published (CHAIN_RPC_URL kept private), the settlement keys made operators by the admin', async () => {
    const { body } = await get(server.api('/exchange'));
    assert.deepEqual(body.chain, { kind: 'rpc', chainId: 31337 });
    assert.equal(body.eip712.verifyingContract, getAddress(rpc.contracts.exchange));
    assert.equal(body.negRiskVerifyingContract, getAddress(rpc.contracts.negRiskExchange));
    for (const [exchange, key] of [[rpc.contracts.exchange, rpc.keys.settlement], [rpc.contracts.negRiskExchange, rpc.keys.negRiskSettlement]] as const) {
      assert.equal(await read<boolean>(exchange, 'exchange', 'isOperator', [privateKeyToAccount(key).address]), true);
    }
  });

  it("gives users the factory's wallets, funds them from the treasury, prepares markets, settles trades, splits and merges, and relays withdrawals on chain", { timeout: 120_000 }, async () => {
    const operator = privateKeyToAccount(rpc.keys.operator).address;
    const treasuryBefore = await read<bigint>(rpc.contracts.collateral, 'collateral', 'balanceOf', [operator]);
    const market = (await createPublishedEvent(server, { markets: 1 })).markets[0]!;
    assert.equal(market.isInitialized, true, 'prepared on chain at publish');
    assert.ok(await read<bigint>(rpc.contracts.conditionalTokens, 'ctf', 'getOutcomeSlotCount', [market.conditionId]) > 0n, 'its condition is on chain');
    const traders = await Promise.all([1, 2, 3, 4].map(() => newTrader(server, { fund: '1000' })));
    for (const trader of traders) {
      assert.equal(getAddress(trader.proxyWallet), await read<Address>(rpc.contracts.proxyWalletFactory, 'factory', 'walletOf', [trader.address]), "the factory's wallet");
      assert.equal(await read<boolean>(rpc.contracts.proxyWalletFactory, 'factory', 'isDeployed', [trader.address]), true);
    }
    assert.equal(await read<bigint>(rpc.contracts.collateral, 'collateral', 'balanceOf', [operator]), treasuryBefore - 4_000n * USDC, 'credits come from the treasury, nothing is minted');

    await crossPairs(server, market, traders);
    await untilEveryTradeSettled(server, traders);
    await expectSettledOnChain(server, rpc.anvil.publicClient, market, traders);

    // Split and merge go through the wallet on chain first (src/conditional-tokens/), here as on the embedded chain.
    const split = await traders[1]!.call('POST', `/markets/${market.id}/split`, { amount: '10' });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    assert.equal((await rpc.anvil.publicClient.getTransactionReceipt({ hash: split.body.txHash as Hex })).status, 'success');
    const merged = await traders[1]!.call('POST', '/markets/merge-positions/batch', { marketIds: [market.id] });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.deepEqual(merged.body.included, [market.id]);
    await expectSettledOnChain(server, rpc.anvil.publicClient, market, traders);

    const to = privateKeyToAccount((await fundedKeys(rpc.anvil, 1))[0]!).address;
    const withdrawn = await traders[0]!.call('POST', '/account/withdraw', await withdrawBody(server, traders[0]!, { to, amount: 5n * USDC, nonce: 1n }));
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.equal((await rpc.anvil.publicClient.getTransactionReceipt({ hash: withdrawn.body.txHash as Hex })).status, 'success');
    assert.equal(await read<bigint>(rpc.contracts.collateral, 'collateral', 'balanceOf', [to]), 5n * USDC);
    await expectSettledOnChain(server, rpc.anvil.publicClient, market, traders);
    await expectAuditClean(server);
  });

  it('refuses a credit the treasury cannot fund on chain, 503 with nothing credited in the ledger', async () => {
    const operator = privateKeyToAccount(rpc.keys.operator).address;
    const trader = await newTrader(server, { fund: '1' });
    const treasury = await read<bigint>(rpc.contracts.collateral, 'collateral', 'balanceOf', [operator]);
    const before = (await trader.call('GET', '/account/balance')).body.collateral;
    const beyond = (treasury / USDC + 1n).toString();
    const refused = await fetch(server.api('/admin/credits'), { method: 'POST', headers: server.adminHeaders, body: JSON.stringify({ address: trader.address, amount: beyond }) });
    const body = (await refused.json()) as { code: string; message: string };
    assert.equal(refused.status, 503, JSON.stringify(body));
    assert.equal(body.code, 'SERVICE_UNAVAILABLE');
    assert.match(body.message, /nothing was credited/);
    assert.deepEqual((await trader.call('GET', '/account/balance')).body.collateral, before, 'the ledger took nothing');
    assert.equal(await read<bigint>(rpc.contracts.collateral, 'collateral', 'balanceOf', [operator]), treasury, 'the treasury paid nothing');
    await expectAuditClean(server);
  });
});

describe('CHAIN=rpc boot refusals', { skip: storeIndependent('the chain') }, () => {
  let rpc: RpcChain;
  const logger = pino({ level: 'silent' });
  /** The chain started and its settlement set up, as the boot does: each refusal is a ConfigError naming what to change. */
  async function boot(changes: Record<string, string>): Promise<void> {
    const config = parseConfig({ ...rpc.env, ...changes });
    const chain = await startChain(config, { template: chainTemplateFiles(buildOutput), logger });
    try {
      await chainSettlementSetup(chain, config);
    } finally {
      await chain.close();
    }
  }
  const refused = (changes: Record<string, string>, mentions: RegExp) =>
    assert.rejects(boot(changes), (error: unknown) => error instanceof ConfigError && mentions.test(error.message), JSON.stringify(changes));

  before(async () => {
    rpc = await startRpcChain();
  });
  after(() => rpc?.anvil.stop());

  it('boots on what was deployed, with or without PROXY_WALLET_FACTORY_ADDRESS', async () => {
    await boot({});
    await boot({ PROXY_WALLET_FACTORY_ADDRESS: rpc.contracts.proxyWalletFactory });
  });

  it('refuses an endpoint of another chain', async () => {
    await refused({ CHAIN_ID: '137' }, /CHAIN_RPC_URL serves chain id 31337, not CHAIN_ID=137/);
  });

  it('refuses exchange addresses where no exchange is, or exchanges of two deployments', async () => {
    await refused({ EXCHANGE_ADDRESS: `0x${'11'.repeat(20)}` }, /EXCHANGE_ADDRESS 0x1111111111111111111111111111111111111111 is not an exchange contract/);
    await refused({ NEG_RISK_EXCHANGE_ADDRESS: rpc.contracts.collateral }, /NEG_RISK_EXCHANGE_ADDRESS .* is not an exchange contract/);
    const other = await anotherDeploymentsExchange(rpc);
    await refused({ NEG_RISK_EXCHANGE_ADDRESS: other }, /name different proxy-wallet factories/);
  });

  it('refuses a PROXY_WALLET_FACTORY_ADDRESS the exchange does not name', async () => {
    await refused({ PROXY_WALLET_FACTORY_ADDRESS: `0x${'55'.repeat(20)}` }, /PROXY_WALLET_FACTORY_ADDRESS is 0x5555555555555555555555555555555555555555 but the exchange/);
  });

  it('refuses settlement keys that are not operators when OPERATOR_KEY is not the admin that could make them so', async () => {
    const [notAdmin, settlement, negRisk] = (await fundedKeys(rpc.anvil, 3)) as [Hex, Hex, Hex];
    const settler = privateKeyToAccount(settlement).address;
    await refused({ OPERATOR_KEY: notAdmin, SETTLEMENT_KEY: settlement, NEG_RISK_SETTLEMENT_KEY: negRisk }, new RegExp(`SETTLEMENT_KEY's address ${settler} is not an operator .* setOperator\\(${settler}, true\\)`));
    // Made operators by the admin (the deployer), the same keys boot beside a key that is not the admin.
    await boot({ SETTLEMENT_KEY: settlement, NEG_RISK_SETTLEMENT_KEY: negRisk });
    await boot({ OPERATOR_KEY: notAdmin, SETTLEMENT_KEY: settlement, NEG_RISK_SETTLEMENT_KEY: negRisk });
  });
});

/** The exchange of another deployment on the same chain. */
async function anotherDeploymentsExchange(rpc: RpcChain): Promise<Address> {
  const [deployer] = await fundedKeys(rpc.anvil, 1);
  return (await deployExchangeContracts(rpc.anvil.rpcUrl, 31337, 'PMX Exchange', deployer!)).contracts.exchange;
}
