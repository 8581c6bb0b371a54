import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, getAddress, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { bearer, createApiKey, signedRequest, signIn } from '../helpers/auth-client.ts';
import { get, post } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ONE_USDC = 1_000_000n;

// Accounts on CHAIN=embedded (issue 39): the wallets the deployed factory names.
describe('CHAIN=embedded accounts', () => {
  let server: TestServer;
  let chain: ReturnType<typeof createPublicClient>;
  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
  });
  after(() => server.close());

  it("a new user's proxyWallet is the factory's walletOf(owner)", async () => {
    const { token, account } = await signIn(server);
    const { body } = await get(server.api('/account'), bearer(token));
    const factory = server.ctx.chain.deployed!.proxyWalletFactory;
    const walletOf = await chain.readContract({ address: factory, abi: loadArtifact('ProxyWalletFactory').abi, functionName: 'walletOf', args: [account.address] }) as Address;
    assert.equal(getAddress(body.proxyWallet), walletOf);
  });

  /** The wallet's collateral on chain, and whether the wallet is deployed there. */
  async function onChain(wallet: Address) {
    const balance = await chain.readContract({ address: server.ctx.chain.deployed!.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [wallet] }) as bigint;
    const code = await chain.getCode({ address: wallet });
    return { balance, deployed: code !== undefined && code.length > 2 };
  }

  it('the faucet mints the credited collateral to the wallet on chain and deploys the wallet', async () => {
    const user = await signIn(server);
    const creds = await createApiKey(server, user.token);
    const wallet = getAddress(user.user.proxyWallet);
    assert.deepEqual(await onChain(wallet), { balance: 0n, deployed: false });
    assert.equal((await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '25' })).status, 200);
    assert.deepEqual(await onChain(wallet), { balance: 25n * ONE_USDC, deployed: true });
    // A second credit only mints: the wallet exists.
    assert.deepEqual((await signedRequest(server, creds, 'POST', '/account/faucet', { amount: '0.5' })).body, { balance: '25.5' });
    assert.deepEqual(await onChain(wallet), { balance: 25n * ONE_USDC + ONE_USDC / 2n, deployed: true });
  });

  it("concurrent credits go through the operator's one nonce pipeline, every mint mined", async () => {
    const users = await Promise.all(Array.from({ length: 4 }, async () => {
      const user = await signIn(server);
      return { wallet: getAddress(user.user.proxyWallet), creds: await createApiKey(server, user.token) };
    }));
    const answers = await Promise.all(users.map(({ creds }, index) => signedRequest(server, creds, 'POST', '/account/faucet', { amount: String(index + 1) })));
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200, 200]);
    for (const [index, { wallet }] of users.entries()) assert.deepEqual(await onChain(wallet), { balance: BigInt(index + 1) * ONE_USDC, deployed: true });
  });

  it('admin credits do the same for a user they create', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const credited = await post(server.api('/admin/credits'), { address: owner.address, amount: '7' }, server.adminHeaders);
    assert.equal(credited.status, 200);
    const wallet = getAddress((await signIn(server, owner)).user.proxyWallet);
    assert.deepEqual(await onChain(wallet), { balance: 7n * ONE_USDC, deployed: true });
  });
});
