import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import type { AppContext } from '../../src/api/context.ts';
import { creditThroughChain } from '../../src/api/account/credit-on-chain.ts';
import { buildOutput } from '../../src/build-output.ts';
import { AppError } from '../../src/contract/errors.ts';
import { chainTemplateFiles } from '../../src/chain/index.ts';
import { TEMPLATE_DEPLOYER_KEY } from '../../src/chain/deployment.ts';
import type { PaymentIntents } from '../../src/chain/once-payments.ts';
import { ChainOperator, FateUnknownError, type ContractCall, type OperatorSteps, type SignedTransaction } from '../../src/chain/operator.ts';
import { operatorPayers } from '../../src/chain/wallet-funding.ts';

const deployed = JSON.parse(readFileSync(chainTemplateFiles(buildOutput).deploymentFile, 'utf8')).contracts;
const user = { id: 'u1', address: `0x${'34'.repeat(20)}`, proxyWallet: `0x${'12'.repeat(20)}` } as const;

/** The records of payments, in memory. */
function intentsInMemory(): PaymentIntents {
  const versions = new Map<string, SignedTransaction[]>();
  return {
    find: async (key) => versions.get(key) ?? [],
    async startAttempt(key, version, tx) {
      if ((versions.get(key) ?? []).length !== version) return false;
      versions.set(key, [...(versions.get(key) ?? []), tx]);
      return true;
    },
    async addVersion(key, tx) { versions.set(key, [...(versions.get(key) ?? []), tx]); },
  };
}

/** A context whose log lines are kept, and whose engine's credits run `credit`. */
function contextWith(chain: { operator?: unknown; deployed?: unknown; kind: 'none' | 'embedded' | 'rpc' }, credit: (command: { idempotencyKey?: string }) => Promise<unknown>) {
  const lines: { msg: string; wallet?: string; level: number }[] = [];
  const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  const payers = operatorPayers(chain as Parameters<typeof operatorPayers>[0], intentsInMemory());
  return { ctx: { chain, logger, payers, trading: { engine: { credit } } } as unknown as AppContext, lines };
}

const creditedOk = { ok: true, balance: 5n, txHash: '0x01', replayed: false } as const;

describe('creditThroughChain: a credit is on chain before the ledger takes it', () => {
  it('answers 503 and credits nothing when the chain does not take it', async () => {
    // Nothing listens on port 1.
    const operator = new ChainOperator(() => 'http://127.0.0.1:1', 31337, TEMPLATE_DEPLOYER_KEY);
    let credited = false;
    const { ctx, lines } = contextWith({ operator, deployed, kind: 'embedded' }, async () => { credited = true; return creditedOk; });
    await assert.rejects(creditThroughChain(ctx, 'faucet', user, 5n), (error: unknown) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE' && /nothing was credited/.test(error.message));
    assert.equal(credited, false);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!.msg, /did not reach the chain/);
    assert.equal(lines[0]!.wallet, user.proxyWallet);
  });

  it('answers 503 naming the transaction, and credits nothing, when the chain stopped answering after it was sent', async () => {
    const sent = `0x${'ab'.repeat(32)}` as const;
    const operator = { exclusive: async () => { throw new FateUnknownError([sent], new Error('fetch failed')); } };
    let credited = false;
    const { ctx, lines } = contextWith({ operator, deployed, kind: 'rpc' }, async () => { credited = true; return creditedOk; });
    await assert.rejects(creditThroughChain(ctx, 'faucet', user, 5n), (error: unknown) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE' && error.message.includes(sent) && /nothing was credited yet/.test(error.message) && /credited if it is mined/.test(error.message));
    // With the request's key, the same request again completes it.
    await assert.rejects(creditThroughChain(ctx, 'admin-credit', user, 5n, '0b0e6d2c-3f0a-4e55-9a51-1c2d3e4f5a6b'), (error: unknown) => error instanceof AppError && /send the same request again, with the same idempotencyKey/.test(error.message));
    assert.equal(credited, false);
    assert.equal(lines.length, 2);
    assert.match(lines[0]!.msg, /stopped answering/);
  });

  it('credits once the collateral is sent and the wallet deployed, with a key of its own when the request has none, and logs a credit refused after that', async () => {
    const sent: string[] = [];
    const steps = {
      sign: async (call: ContractCall) => { sent.push(call.functionName); return { raw: '0x02', hash: `0x${'cd'.repeat(32)}`, nonce: sent.length }; },
      broadcast: async (versions: SignedTransaction[]) => versions[0]!.hash,
      send: async (call: ContractCall) => { sent.push(call.functionName); return '0x01'; },
      read: async () => false,
    } as unknown as OperatorSteps;
    const operator = { exclusive: <T>(work: (chain: OperatorSteps) => Promise<T>) => work(steps) };
    const order: string[] = [];
    const keys: (string | undefined)[] = [];
    let refuse = false;
    const { ctx, lines } = contextWith({ operator, deployed, kind: 'embedded' }, async (command) => {
      if (refuse) throw new Error('not the leader');
      order.push(`credit after ${sent.join(', ')}`);
      keys.push(command.idempotencyKey);
      return creditedOk;
    });
    assert.equal((await creditThroughChain(ctx, 'faucet', user, 5n)).balance, 5n);
    assert.deepEqual(order, ['credit after mint, deployWallet']);
    assert.match(keys[0]!, /^[0-9a-f-]{36}$/, 'the ledger credits once per key, so the leader can complete a credit cut in two');
    await creditThroughChain(ctx, 'admin-credit', user, 5n, '0b0e6d2c-3f0a-4e55-9a51-1c2d3e4f5a6b');
    assert.equal(keys[1], '0b0e6d2c-3f0a-4e55-9a51-1c2d3e4f5a6b');
    assert.equal(lines.length, 0);

    refuse = true;
    await assert.rejects(creditThroughChain(ctx, 'faucet', user, 5n), /not the leader/);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!.msg, /reached the chain but the ledger refused it/);
  });

  it('credits alone without a chain (CHAIN=none), keyed only when the request is', async () => {
    const keys: (string | undefined)[] = [];
    const { ctx } = contextWith({ operator: undefined, deployed: undefined, kind: 'none' }, async (command) => { keys.push(command.idempotencyKey); return creditedOk; });
    assert.equal((await creditThroughChain(ctx, 'faucet', user, 5n)).balance, 5n);
    assert.deepEqual(keys, [undefined]);
  });
});
