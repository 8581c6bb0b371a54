/**
 * Issue 39 item 7: the web app on an exchange with an embedded chain (CHAIN=embedded), in Debian's
 * Chromium with an injected wallet (injected-wallet.ts): signing in puts the wallet on the
 * exchange's chain (added with the server's /rpc), the portfolio shows the wallet's collateral and
 * outcome tokens read from the chain and says when they differ from the ledger, a withdrawal is
 * signed by the wallet and sent on chain, and transaction hashes link to the app's page of the
 * transaction's receipt and logs. Screenshots go to test-results/screenshots.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPublicClient, createWalletClient, getAddress, http, parseAbi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, type ExchangeInfo } from '../../src/client/index.ts';
import { TEMPLATE_DEPLOYER_KEY } from '../../src/chain/deployment.ts';
import { ensureBuild } from '../helpers/build.ts';
import { createPublishedEvent, type PublishedEvent } from '../helpers/catalogue.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { newTrader, placeOrder } from '../helpers/trader.ts';
import { openBrowser, type OpenBrowser, screenshots, skipReason } from './browser.ts';
import { injectWallet, type InjectedWallet } from './injected-wallet.ts';

const USDC = 1_000_000n;
const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function mint(address to, uint256 amount)']);

describe('the web app on an embedded chain', { skip: storeIndependent('the web app') || skipReason(), timeout: 300_000 }, () => {
  let server: TestServer;
  let exchange: ExchangeInfo;
  let event: PublishedEvent;
  let watched: OpenBrowser;
  let page: Page;
  let wallet: InjectedWallet;
  const owner = privateKeyToAccount(generatePrivateKey());
  let proxyWallet: Address;
  let chain: ReturnType<typeof createPublicClient>;
  const collateralOf = (holder: Address) => chain.readContract({ address: exchange.collateral.address as Address, abi: ERC20, functionName: 'balanceOf', args: [holder] });

  before(async () => {
    ensureBuild();
    server = await startTestServer({ CHAIN: 'embedded' });
    exchange = await createClient({ baseUrl: server.url }).exchange();
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
    event = await createPublishedEvent(server, { markets: 1 });
    watched = await openBrowser({
      prepare: async (context) => {
        wallet = await injectWallet(context, owner);
      },
    });
    page = watched.page;
  });

  after(async () => {
    await watched?.close();
    await server?.close();
  });

  it("connecting the wallet adds the exchange's chain with the server's /rpc and switches to it", async () => {
    assert.equal(exchange.chain.kind, 'embedded');
    assert.equal(exchange.chain.rpcUrl, `${server.url}/rpc`);
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const chainId = `0x${exchange.chain.chainId.toString(16)}`;
    assert.deepEqual(wallet.added, [{ chainId, rpcUrls: [`${server.url}/rpc`] }]);
    assert.equal(wallet.chainId(), chainId);
    const methods = wallet.calls.map((call) => call.method);
    assert.ok(methods.indexOf('wallet_switchEthereumChain') < methods.indexOf('personal_sign'), `switched before signing in: ${methods.join(', ')}`);
    proxyWallet = getAddress((await createClient({ baseUrl: server.url, account: owner }).auth.signIn()).user.proxyWallet);
  });

  it("shows the wallet's collateral and outcome tokens read from the chain, and a difference with the ledger in words", async () => {
    await page.getByRole('button', { name: 'Faucet' }).click();
    await page.getByText('Faucet: 1000 USDC credited').waitFor();
    assert.equal(await collateralOf(proxyWallet), 1000n * USDC);

    // A trade: the owner buys 10 Yes at 40¢ against a trader buying 10 No at 60¢, settled on chain.
    const ownerClient = createClient({ baseUrl: server.url, account: owner });
    await ownerClient.auth.signIn();
    const signed = createClient({ baseUrl: server.url, account: owner, credentials: { apiKey: await ownerClient.auth.createApiKey() } });
    const market = event.markets[0]!;
    await signed.orders.place({ tokenId: market.tokenId1, side: 'BUY', price: '0.4', size: '10' });
    const taker = await newTrader(server, { fund: '100' });
    assert.equal((await placeOrder(server, taker, { tokenId: market.tokenId2, side: 'BUY', price: '0.6', size: '10' })).body.status, 'EXECUTED');
    await server.ctx.trading.engine.settle();

    // A deposit straight to the wallet, which the exchange does not see yet (no chain indexer).
    const deployer = createWalletClient({ account: privateKeyToAccount(TEMPLATE_DEPLOYER_KEY), transport: http(server.ctx.chain.embedded!.url) });
    const mint = await deployer.writeContract({ address: exchange.collateral.address as Address, abi: ERC20, functionName: 'mint', args: [proxyWallet, 5n * USDC], chain: null });
    await chain.waitForTransactionReceipt({ hash: mint });

    await page.getByRole('link', { name: 'Portfolio' }).click();
    await page.getByTestId('cash-on-chain').filter({ hasText: '$1,001.00' }).waitFor();
    await page.getByTestId('cash-in-flight').filter({ hasText: "$5.00 more on chain than the exchange's ledger counts ($996.00)" }).waitFor();
    await page.getByTestId('tokens-on-chain').filter({ hasText: '10.00' }).waitFor();
    await page.getByTestId('cash').locator('.settling').waitFor();
    await screenshots(page, 'portfolio-on-chain');
  });

  it('withdraws with the wallet\'s EIP-712 signature, sent on chain, and links the transaction', async () => {
    // The owner moved the wallet to another chain meanwhile: the app puts it back before it signs.
    const chainId = wallet.chainId();
    wallet.moveTo('0x1');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const form = page.getByTestId('withdraw');
    await form.getByLabel('To').fill(to);
    await form.getByLabel('Amount (USDC)').fill('30');
    await form.getByRole('button', { name: 'Withdraw' }).click();
    const link = page.getByTestId('withdraw-sent').getByRole('link');
    await link.waitFor();
    assert.ok(wallet.calls.some((call) => call.method === 'eth_signTypedData_v4' && String(call.params[1]).includes('"primaryType":"Withdraw"')), 'the wallet signed the Withdraw');
    assert.equal(await collateralOf(to), 30n * USDC);
    assert.equal(wallet.chainId(), chainId);
    await page.getByTestId('cash-on-chain').filter({ hasText: '$971.00' }).waitFor();

    await link.click();
    await page.getByTestId('transaction-status').filter({ hasText: 'Success' }).waitFor();
    const logs = page.getByTestId('transaction-logs');
    await logs.getByText('Withdrawn', { exact: true }).waitFor();
    await logs.getByText('Transfer', { exact: true }).waitFor();
    await logs.getByText('your wallet', { exact: false }).first().waitFor();
    await screenshots(page, 'transaction-withdrawal');
  });

  it("links a trade's settlement transaction from the activity to its fills on chain", async () => {
    await page.goBack();
    const buy = page.getByTestId('activity').locator('tbody tr', { hasText: 'BUY' });
    await buy.getByRole('link', { name: /^0x/ }).click();
    await page.getByTestId('transaction-status').filter({ hasText: 'Success' }).waitFor();
    await page.getByTestId('transaction-logs').getByText('OrderFilled', { exact: true }).first().waitFor();
    assert.deepEqual(watched.errors, []);
  });
});
