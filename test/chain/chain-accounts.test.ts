import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPublicClient, getAddress, http, type Address } from 'viem';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { bearer, signIn } from '../helpers/auth-client.ts';
import { get } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

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
});
