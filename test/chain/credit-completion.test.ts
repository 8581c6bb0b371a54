// Credits cut between their two sides on CHAIN=embedded (src/api/account/credit-completion.ts): the
// collateral mined into the wallet and the ledger's credit never made, as when the server stops
// between them. The leader completes them from the records of payments, once, and leaves alone a
// payment that was never mined.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createPublicClient, getAddress, http, type Address } from 'viem';
import { fundWalletOnce } from '../../src/chain/index.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { paymentIntentsIn } from '../../src/store/chain-payment-intents-repository.ts';
import { createApiKey, signedRequest, signIn, type ApiCredentials } from '../helpers/auth-client.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';
import { post } from '../helpers/http.ts';

const ONE = 1_000_000n;

describe('credits cut between the chain and the ledger are completed by the leader', () => {
  let server: TestServer;
  let chain: ReturnType<typeof createPublicClient>;
  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded' });
    chain = createPublicClient({ transport: http(server.ctx.chain.embedded!.url) });
  });
  after(() => server.close());

  const completion = () => server.ctx.jobs.find((job) => job.name === 'credit completion')!;
  const onChain = async (wallet: Address) => await chain.readContract({ address: server.ctx.chain.deployed!.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [wallet] }) as bigint;
  const inLedger = async (creds: ApiCredentials) => (await signedRequest(server, creds, 'GET', '/account/balance')).body.collateral.balance as string;

  async function newUser() {
    const user = await signIn(server);
    return { owner: user.account.address, wallet: getAddress(user.user.proxyWallet), creds: await createApiKey(server, user.token) };
  }

  /** The chain's side of a credit alone, recorded as a credit records it: the server stopped before the ledger's. */
  const cutCredit = (to: { owner: Address; wallet: Address }, amount: bigint, key: string) =>
    fundWalletOnce(server.ctx.chain.operator!, server.ctx.chain.deployed!, server.ctx.payers!.reward, to, amount, key);

  it('credits the ledger for admin credits and faucet credits mined on chain, once, and not for a payment never mined', async () => {
    const user = await newUser();
    // Recorded, never sent: the next transaction takes its nonce, so it can never be mined.
    const neverSent = await server.ctx.chain.operator!.exclusive((steps) => steps.sign({ address: server.ctx.chain.deployed!.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [user.wallet, 5n * ONE] }));
    assert.equal(await paymentIntentsIn(server.ctx.store.db).startAttempt(`faucet:${randomUUID()}`, 0, neverSent), true);
    const adminKey = randomUUID();
    await cutCredit(user, 7n * ONE, `admin-credit:${adminKey}`);
    await cutCredit(user, 2n * ONE, `faucet:${randomUUID()}`);
    assert.equal(await onChain(user.wallet), 9n * ONE);
    assert.equal(await inLedger(user.creds), '0');

    await completion().tick();
    assert.equal(await inLedger(user.creds), '9');
    await completion().tick();
    assert.equal(await inLedger(user.creds), '9', 'completed once');

    // The operator sending the request again, as told to after an unclear answer: it pays nothing more.
    const again = await post(server.api('/admin/credits'), { address: user.owner, amount: '7', idempotencyKey: adminKey }, { authorization: `Bearer ${ADMIN_TOKEN}` });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.balance, '9');
    assert.equal(await onChain(user.wallet), 9n * ONE);
  });

  it('reads only the last day of records each minute, and every record when it starts (the leader takes over)', async () => {
    const user = await newUser();
    const key = `faucet:${randomUUID()}`;
    await cutCredit(user, 3n * ONE, key);
    await sql`UPDATE chain_payment_intents SET signed_at = now() - interval '2 days' WHERE key = ${key}`.execute(server.ctx.store.db);
    await completion().tick();
    assert.equal(await inLedger(user.creds), '0');

    await completion().start!();
    // A tick while the start's look runs waits for it.
    await completion().tick();
    assert.equal(await inLedger(user.creds), '3');
    assert.equal(await onChain(user.wallet), 3n * ONE);
  });
});
