import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createWalletClient, getAddress, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { AppContext } from '../../src/api/context.ts';
import { withdrawOnChain } from '../../src/api/account/withdraw-on-chain.ts';
import type { ChainOperator, DeployedContracts, PaymentIntents } from '../../src/chain/index.ts';
import type { ContractCall, OperatorSteps, SignedTransaction } from '../../src/chain/operator.ts';
import { AppError } from '../../src/contract/errors.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { userAccount, WITHDRAWN } from '../../src/settlement/index.ts';
import { createPublishedEvent } from '../helpers/catalogue.ts';
import { type EmbeddedChainServer, startOnEmbeddedChain } from '../helpers/embedded-chain-server.ts';
import { expectError } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { closeAudited, newTrader, type Trader } from '../helpers/trader.ts';
import { withdrawBody } from '../helpers/withdrawals.ts';

const USDC = 1_000_000n;

// POST /account/withdraw on CHAIN=embedded (EXTENSIONS.md section 14): relayed to the proxy wallet's withdraw.
describe('CHAIN=embedded withdrawals', () => {
  let server: TestServer;
  let chain: EmbeddedChainServer['chain'];
  before(async () => {
    ({ server, chain } = await startOnEmbeddedChain());
  });
  after(() => closeAudited(server));

  const collateralOf = (holder: Address) =>
    chain.readContract({ address: server.ctx.chain.deployed!.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'balanceOf', args: [holder] }) as Promise<bigint>;
  const ledgerOf = async (trader: Trader) => (await trader.call('GET', '/account/balance')).body.collateral;

  it('sends the collateral to `to` on chain, answering the mined transaction', async () => {
    const alice = await newTrader(server, { fund: '100' });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const wallet = getAddress(alice.proxyWallet);
    assert.equal(await collateralOf(wallet), 100n * USDC);

    const response = await alice.call('POST', '/account/withdraw', await withdrawBody(server, alice, { to, amount: 30n * USDC, nonce: 1n }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const receipt = await chain.getTransactionReceipt({ hash: response.body.txHash as Hex });
    assert.equal(receipt.status, 'success');
    assert.equal(getAddress(receipt.to!), wallet, "the wallet's own withdraw");
    assert.deepEqual([await collateralOf(to), await collateralOf(wallet)], [30n * USDC, 70n * USDC]);
    assert.deepEqual(await ledgerOf(alice), { balance: '70', locked: '0', available: '70' });
  });

  it('refuses a spent nonce and an amount above available, sending nothing', async () => {
    const bob = await newTrader(server, { fund: '10' });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    assert.equal((await bob.call('POST', '/account/withdraw', await withdrawBody(server, bob, { to, amount: USDC, nonce: 3n }))).status, 200);
    // The wallet refuses the spent nonce on chain before the ledger is asked.
    expectError(await bob.call('POST', '/account/withdraw', await withdrawBody(server, bob, { to, amount: USDC, nonce: 3n })), 400, 'VALIDATION_FAILED');
    expectError(await bob.call('POST', '/account/withdraw', await withdrawBody(server, bob, { to, amount: 10n * USDC, nonce: 4n })), 400, 'INSUFFICIENT_BALANCE');
    assert.deepEqual([await collateralOf(to), await collateralOf(getAddress(bob.proxyWallet))], [USDC, 9n * USDC]);
    assert.equal((await ledgerOf(bob)).balance, '9');
  });

  it('refuses, recording nothing, what the wallet would revert: a nonce spent on chain behind the exchange', async () => {
    const carol = await newTrader(server, { fund: '10' });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const body = await withdrawBody(server, carol, { to, amount: USDC, nonce: 7n });
    // The owner relays its own signature straight to its wallet (anyone may), paying its own gas.
    const url = server.ctx.chain.embedded!.url;
    await chain.request({ method: 'anvil_setBalance' as never, params: [carol.address, '0xde0b6b3a7640000'] as never });
    const owner = createWalletClient({ account: carol.session.account, transport: http(url) });
    const direct = await owner.writeContract({
      address: getAddress(carol.proxyWallet), abi: loadArtifact('ProxyWallet').abi, functionName: 'withdraw', args: [to, USDC, 7n, body.signature], chain: null,
    });
    assert.equal((await chain.waitForTransactionReceipt({ hash: direct })).status, 'success');

    const refused = await carol.call('POST', '/account/withdraw', body);
    expectError(refused, 400, 'VALIDATION_FAILED');
    assert.match(refused.body.message, /WithdrawNonceUsed/);
    // The ledger follows the chain's transfer out of the wallet (the indexer), and nothing else.
    await server.ctx.trading.engine.chainIndexed();
    assert.equal((await ledgerOf(carol)).balance, '9', 'the direct withdrawal only');
    assert.equal(await collateralOf(to), USDC, 'only the direct withdrawal');
  });

  it('takes a wallet\'s withdrawals and splits one at a time: of two at once that the balance covers only one of, the other is INSUFFICIENT_BALANCE', async () => {
    const erin = await newTrader(server, { fund: '20' });
    const market = (await createPublishedEvent(server)).markets[0]!;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const [first, second] = await Promise.all([1n, 2n].map((nonce) => withdrawBody(server, erin, { to, amount: 15n * USDC, nonce })));
    const withdrawals = await Promise.all([first, second].map((body) => erin.call('POST', '/account/withdraw', body)));
    assert.deepEqual(withdrawals.map((answer) => answer.status).sort(), [200, 400], JSON.stringify(withdrawals.map((answer) => answer.body)));
    expectError(withdrawals.find((answer) => answer.status === 400)!, 400, 'INSUFFICIENT_BALANCE');
    assert.equal((await ledgerOf(erin)).balance, '5');
    // A withdrawal and a split at once: whichever goes second finds the balance the first left.
    const frank = await newTrader(server, { fund: '20' });
    const [withdrawn, split] = await Promise.all([
      frank.call('POST', '/account/withdraw', await withdrawBody(server, frank, { to, amount: 15n * USDC, nonce: 1n })),
      frank.call('POST', `/markets/${market.id}/split`, { amount: '15' }),
    ]);
    assert.deepEqual([withdrawn.status, split.status].sort(), [200, 400], JSON.stringify([withdrawn.body, split.body]));
    expectError([withdrawn, split].find((answer) => answer.status === 400)!, 400, 'INSUFFICIENT_BALANCE');
    assert.equal((await ledgerOf(frank)).balance, '5');
    assert.equal(await collateralOf(getAddress(frank.proxyWallet)), 5n * USDC);
  });

  it("answers 429 to a wallet's ninth request while eight are being sent on chain, moving nothing for it; the eight settle", async () => {
    const dave = await newTrader(server, { fund: '20' });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const bodies = await Promise.all(Array.from({ length: 9 }, (_, i) => withdrawBody(server, dave, { to, amount: USDC, nonce: BigInt(i + 1) })));
    // The wallet's turn held shut: none of the nine can end before all nine have arrived, so
    // whichever arrives ninth finds eight being sent, and is refused at once.
    const tokens = server.ctx.conditionalTokens;
    const inWalletTurn = tokens.inWalletTurn.bind(tokens);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    Object.assign(tokens, { inWalletTurn: async <T>(wallet: string, work: () => Promise<T>) => { await gate; return inWalletTurn(wallet, work); } });
    let answers: { status: number; body: { code?: string }; headers: Headers }[];
    try {
      const sending = bodies.map((body) => dave.call('POST', '/account/withdraw', body));
      const refused = await Promise.race(sending);
      expectError(refused, 429, 'RATE_LIMITED');
      assert.equal(refused.headers.get('retry-after'), '1');
      open();
      answers = await Promise.all(sending);
    } finally {
      open();
      Object.assign(tokens, { inWalletTurn });
    }
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [...Array(8).fill(200), 429]);
    assert.equal(await collateralOf(to), 8n * USDC);
    assert.equal((await ledgerOf(dave)).balance, '12');
    // Answered, the wallet sends its next: the refused one, again.
    const again = bodies[answers.findIndex((answer) => answer.status === 429)]!;
    assert.equal((await dave.call('POST', '/account/withdraw', again)).status, 200);
    assert.equal(await collateralOf(to), 9n * USDC);
    assert.equal((await ledgerOf(dave)).balance, '11');
  });
});

// WALLET_RELAYS_PER_HOUR (src/api/wallet-relays.ts): what a wallet makes the operator pay gas for.
describe("a wallet's relays an hour on CHAIN=embedded", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ CHAIN: 'embedded', WALLET_RELAYS_PER_HOUR: '2' });
  });
  after(() => closeAudited(server));

  it('answers 429 with the seconds until the hour frees one, moving nothing, once the wallet had its relays of the hour', async () => {
    const erin = await newTrader(server, { fund: '10' });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    for (const nonce of [1n, 2n]) assert.equal((await erin.call('POST', '/account/withdraw', await withdrawBody(server, erin, { to, amount: USDC, nonce }))).status, 200);
    const refused = await erin.call('POST', '/account/withdraw', await withdrawBody(server, erin, { to, amount: USDC, nonce: 3n }));
    expectError(refused, 429, 'RATE_LIMITED');
    assert.match(refused.body.message, /WALLET_RELAYS_PER_HOUR/);
    const waitSeconds = Number(refused.headers.get('retry-after'));
    assert.ok(waitSeconds > 3_500 && waitSeconds <= 3_600, `Retry-After ${waitSeconds}`);
    assert.equal((await erin.call('GET', '/account/balance')).body.collateral.balance, '8', 'the third moved nothing');
    const frank = await newTrader(server, { fund: '2' });
    assert.equal((await frank.call('POST', '/account/withdraw', await withdrawBody(server, frank, { to, amount: USDC, nonce: 1n }))).status, 200, "another wallet's budget is its own");
  });
});

/**
 * The relay failing after the journal holds the withdrawal (withdraw-on-chain.ts), with an operator
 * whose chain simulates the call, then fails as `failure` says: the chain going away before the
 * transaction is seen mined, or the transaction mined and reverted with the wallet's nonce unspent
 * or spent.
 */
describe('withdrawOnChain when the chain fails after the journal', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => closeAudited(server));

  function failingChain(failure: 'gone' | 'reverted, nonce unspent' | 'reverted, nonce spent') {
    const reverted = { kind: 'mined', receipt: { status: 'reverted', transactionHash: `0x${'ee'.repeat(32)}` } };
    const steps = {
      simulate: async () => ({ ok: true }),
      read: async <T>(call: ContractCall) => (call.functionName === 'isDeployed' ? true : failure === 'reverted, nonce spent') as T,
      sign: async () => {
        if (failure === 'gone') throw new Error('the chain went away');
        return { hash: `0x${'ee'.repeat(32)}`, nonce: 7, raw: '0x02' };
      },
      broadcast: async () => { throw new Error('a payment reverted'); },
      fateOf: async () => reverted,
    } as unknown as OperatorSteps;
    const operator = { exclusive: <T>(work: (s: OperatorSteps) => Promise<T>) => work(steps) } as unknown as ChainOperator;
    const versions = new Map<string, SignedTransaction[]>();
    const intents: PaymentIntents = {
      find: async (key) => versions.get(key) ?? [],
      startAttempt: async (key, _version, tx) => { versions.set(key, [tx]); return true; },
      addVersion: async () => {},
    };
    return { operator, deployed: { proxyWalletFactory: `0x${'fa'.repeat(20)}` } as DeployedContracts, intents };
  }

  async function attempt(trader: Trader, failure: Parameters<typeof failingChain>[0]) {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
    const ctx = { ...server.ctx, logger } as AppContext;
    const account = userAccount(trader.proxyWallet);
    const withdrawal = { owner: trader.address, wallet: trader.proxyWallet, to: `0x${'11'.repeat(20)}` as Address, amountBaseUnits: 4n * USDC, nonce: 9n, signature: '0x' as Hex };
    const record = async () => {
      const outcome = await server.ctx.trading.engine.withdraw({ account, to: withdrawal.to, amount: withdrawal.amountBaseUnits, nonce: withdrawal.nonce });
      assert.equal(outcome.ok, true);
    };
    const error = await withdrawOnChain(ctx, failingChain(failure), withdrawal, record, WITHDRAWN).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof AppError && error.statusCode === 503, String(error));
    return { lines, message: error.message };
  }
  const ledgerOf = (trader: Trader) => server.ctx.trading.engine.reads.balances(userAccount(trader.proxyWallet)).collateral.balance;

  it('keeps the withdrawal in the ledger when the chain goes away, and tells the caller not to sign it again: the leader sends it later', async () => {
    const dave = await newTrader(server, { fund: '10' });
    const { lines, message } = await attempt(dave, 'gone');
    assert.match(message, /is recorded, and its transaction is sent once the chain answers again: do not sign it again/);
    assert.match(lines[0]!.msg, /not seen mined: the ledger keeps it/);
    assert.equal(ledgerOf(dave), 6n * USDC);
  });

  it('gives the collateral back in the ledger when the wallet refused it with the nonce unspent', async () => {
    const carol = await newTrader(server, { fund: '10' });
    const withdrawnBefore = server.ctx.trading.engine.reads.balances(WITHDRAWN).collateral.balance;
    const { lines, message } = await attempt(carol, 'reverted, nonce unspent');
    assert.match(message, /the chain refused the withdrawal .* and nothing moved; sign it again with a new nonce/);
    assert.match(lines[0]!.msg, /refused on chain: its collateral went back/);
    assert.equal(ledgerOf(carol), 10n * USDC);
    assert.equal(server.ctx.trading.engine.reads.balances(WITHDRAWN).collateral.balance, withdrawnBefore);
    // The nonce stays spent in the ledger: the owner signs again with another.
    const again = await server.ctx.trading.engine.withdraw({ account: userAccount(carol.proxyWallet), to: `0x${'11'.repeat(20)}`, amount: USDC, nonce: 9n });
    assert.equal(again.ok, false);
  });

  it('keeps the withdrawal, logged, when the wallet refused it because its nonce was spent by another transaction', async () => {
    const erin = await newTrader(server, { fund: '10' });
    const { lines, message } = await attempt(erin, 'reverted, nonce spent');
    assert.match(message, /its nonce was spent by another transaction/);
    assert.match(lines[0]!.msg, /nonce spent by another transaction: the ledger keeps it/);
    assert.equal(ledgerOf(erin), 6n * USDC);
  });
});
