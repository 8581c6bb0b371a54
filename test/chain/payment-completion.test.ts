// Moves of money cut between the ledger and the chain on CHAIN=embedded, completed by the leader
// from the records of payments (src/api/account/payment-completion.ts): credits mined into the
// wallet whose ledger side was never made (the server stopped between them), completed once, a
// payment never mined left alone; withdrawals journaled whose transaction was never sent, sent;
// one the wallet refused, undone in the ledger and never sent again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createWalletClient, encodeFunctionData, getAddress, http, keccak256, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TEMPLATE_DEPLOYER_KEY } from '../../src/chain/deployment.ts';
import { deployedProxyWallets, fundWalletOnce } from '../../src/chain/index.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { paymentIntentsIn } from '../../src/store/chain-payment-intents-repository.ts';
import { withdrawalUndo } from '../../src/api/account/withdraw-on-chain.ts';
import { userAccount, WITHDRAWN } from '../../src/settlement/index.ts';
import { createApiKey, signedRequest, signIn, type ApiCredentials } from '../helpers/auth-client.ts';
import { closeAudited, newTrader, type Trader } from '../helpers/trader.ts';
import { signWithdrawal } from '../helpers/withdrawals.ts';
import { type EmbeddedChainServer, startOnEmbeddedChain } from '../helpers/embedded-chain-server.ts';
import { ADMIN_TOKEN, type TestServer } from '../helpers/server.ts';
import { post } from '../helpers/http.ts';

const ONE = 1_000_000n;

describe('payments cut between the chain and the ledger are completed by the leader', () => {
  let server: TestServer;
  let chain: EmbeddedChainServer['chain'];
  before(async () => {
    ({ server, chain } = await startOnEmbeddedChain());
  });
  after(() => closeAudited(server));

  const completion = () => server.ctx.jobs.find((job) => job.name === 'payment completion')!;
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

  it('reads only the last day of records each minute, and the last week when it starts (the leader takes over)', async () => {
    const user = await newUser();
    const key = `faucet:${randomUUID()}`;
    await cutCredit(user, 3n * ONE, key);
    await sql`UPDATE chain_payment_intents SET signed_at = now() - interval '2 days' WHERE key = ${key}`.execute(server.ctx.store.db);
    const older = await newUser();
    const olderKey = `faucet:${randomUUID()}`;
    await cutCredit(older, 3n * ONE, olderKey);
    await sql`UPDATE chain_payment_intents SET signed_at = now() - interval '8 days' WHERE key = ${olderKey}`.execute(server.ctx.store.db);
    await completion().tick();
    assert.equal(await inLedger(user.creds), '0');

    await completion().start!();
    // A tick while the start's look runs waits for it.
    await completion().tick();
    assert.equal(await inLedger(user.creds), '3');
    assert.equal(await onChain(user.wallet), 3n * ONE);
    assert.equal(await inLedger(older.creds), '0', 'a record older than a week is left to the operator (pmx audit names the wallet)');
    await sql`UPDATE chain_payment_intents SET signed_at = now() WHERE key = ${olderKey}`.execute(server.ctx.store.db);
    await completion().tick();
    assert.equal(await inLedger(older.creds), '3');
  });

  /** The ledger's side of a withdrawal alone, journaled as the route journals it: the server stopped before its transaction was sent. */
  async function journalWithdrawal(trader: Trader, terms: { to: Address; amount: bigint; nonce: bigint }) {
    const outcome = await server.ctx.trading.engine.withdraw({ account: userAccount(trader.proxyWallet), to: terms.to, amount: terms.amount, nonce: terms.nonce });
    assert.equal(outcome.ok, true);
  }
  const withdrawCall = (trader: Trader, terms: { to: Address; amount: bigint; nonce: bigint }, signature: Hex) =>
    ({ address: getAddress(trader.proxyWallet), abi: loadArtifact('ProxyWallet').abi, functionName: 'withdraw', args: [terms.to, terms.amount, terms.nonce, signature] });
  const withdrawalKey = (trader: Trader, nonce: bigint) => `withdraw:${trader.proxyWallet.toLowerCase()}:${nonce}`;
  /** A withdrawal journaled, its transaction signed and recorded, and the server stopped before sending it. */
  async function journalUnsentWithdrawal(trader: Trader, terms: { to: Address; amount: bigint; nonce: bigint }) {
    await journalWithdrawal(trader, terms);
    const call = withdrawCall(trader, terms, await signWithdrawal(server, trader.session.account, terms));
    const signed = await server.ctx.chain.operator!.exclusive((steps) => steps.sign(call));
    assert.equal(await paymentIntentsIn(server.ctx.store.db).startAttempt(withdrawalKey(trader, terms.nonce), 0, signed), true);
  }

  it('sends a journaled withdrawal whose transaction was recorded and never sent, once', async () => {
    const trader = await newTrader(server, { fund: '100' });
    const terms = { to: privateKeyToAccount(generatePrivateKey()).address, amount: 30n * ONE, nonce: 5n };
    await journalUnsentWithdrawal(trader, terms);
    assert.deepEqual([await onChain(getAddress(trader.proxyWallet)), await onChain(terms.to)], [100n * ONE, 0n]);

    await completion().tick();
    assert.deepEqual([await onChain(getAddress(trader.proxyWallet)), await onChain(terms.to)], [70n * ONE, 30n * ONE]);
    assert.equal(await inLedger(trader.creds), '70');
    await completion().start!();
    await completion().tick();
    assert.equal(await onChain(terms.to), 30n * ONE, 'sent once');
  });

  /** The withdrawal's transaction recorded and mined, reverted by the wallet (it carries a signature of another amount). */
  async function recordRevertedWithdrawal(trader: Trader, terms: { to: Address; amount: bigint; nonce: bigint }) {
    const badSignature = await signWithdrawal(server, trader.session.account, { ...terms, amount: terms.amount + 1n });
    const operator = privateKeyToAccount(TEMPLATE_DEPLOYER_KEY);
    const wallet = createWalletClient({ account: operator, transport: http(server.ctx.chain.embedded!.url) });
    const call = withdrawCall(trader, terms, badSignature);
    const nonce = await chain.getTransactionCount({ address: operator.address, blockTag: 'latest' });
    const fees = await chain.estimateFeesPerGas();
    const raw = await wallet.signTransaction({ chain: null, to: call.address, data: encodeFunctionData(call), gas: 300_000n, nonce, type: 'eip1559', maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas });
    assert.equal(await paymentIntentsIn(server.ctx.store.db).startAttempt(withdrawalKey(trader, terms.nonce), 0, { hash: keccak256(raw), nonce, raw }), true);
    const hash = await chain.sendRawTransaction({ serializedTransaction: raw });
    assert.equal((await chain.waitForTransactionReceipt({ hash })).status, 'reverted');
  }

  it('undoes in the ledger a journaled withdrawal the wallet refused with its nonce unspent, and never sends it again', async () => {
    const trader = await newTrader(server, { fund: '100' });
    const terms = { to: privateKeyToAccount(generatePrivateKey()).address, amount: 20n * ONE, nonce: 6n };
    await journalWithdrawal(trader, terms);
    assert.equal(await inLedger(trader.creds), '80');
    await recordRevertedWithdrawal(trader, terms);

    await completion().tick();
    assert.equal(await inLedger(trader.creds), '100', 'undone: nothing left the wallet');
    // Looked at again, at leadership too: its latest attempt reverted, so nothing is signed anew or sent.
    await completion().start!();
    await completion().tick();
    assert.deepEqual([await onChain(getAddress(trader.proxyWallet)), await onChain(terms.to), await inLedger(trader.creds)], [100n * ONE, 0n, '100']);
  });

  it("undoes a refused withdrawal from where the ledger moved it, though its address became a user's wallet since", async () => {
    const trader = await newTrader(server, { fund: '100' });
    const latecomer = privateKeyToAccount(generatePrivateKey());
    const terms = { to: deployedProxyWallets(server.ctx.chain.deployed)!(latecomer.address), amount: 20n * ONE, nonce: 9n };
    // To an address no user's wallet yet: the ledger moves it out of the exchange (WITHDRAWN).
    await journalWithdrawal(trader, terms);
    await recordRevertedWithdrawal(trader, terms);
    // Its owner signs up, and holds collateral a reversal read from `to` would take back.
    const signedUp = await signIn(server, latecomer);
    assert.equal(getAddress(signedUp.user.proxyWallet), terms.to);
    const latecomerCreds = await createApiKey(server, signedUp.token);
    assert.equal((await post(server.api('/admin/credits'), { address: latecomer.address, amount: '50' }, { authorization: `Bearer ${ADMIN_TOKEN}` })).status, 200);

    await completion().tick();
    assert.deepEqual([await inLedger(trader.creds), await inLedger(latecomerCreds)], ['100', '50']);
  });

  it('never sends a withdrawal undone in the ledger, even when its transaction would now go through', async () => {
    const trader = await newTrader(server, { fund: '100' });
    const terms = { to: privateKeyToAccount(generatePrivateKey()).address, amount: 10n * ONE, nonce: 7n };
    await journalUnsentWithdrawal(trader, terms);
    // Undone at an earlier settling (the wallet refused it then), before this record's transaction was sent.
    await withdrawalUndo(server.ctx.trading.engine, { account: userAccount(trader.proxyWallet), nonce: terms.nonce, amountBaseUnits: terms.amount, receivedBy: WITHDRAWN }).reverse();
    await completion().tick();
    assert.deepEqual([await onChain(getAddress(trader.proxyWallet)), await onChain(terms.to), await inLedger(trader.creds)], [100n * ONE, 0n, '100']);
  });
});
