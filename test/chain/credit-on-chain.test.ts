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
import { ChainOperator, FateUnknownError, type ContractCall, type OperatorSteps } from '../../src/chain/operator.ts';

const deployed = JSON.parse(readFileSync(chainTemplateFiles(buildOutput).deploymentFile, 'utf8')).contracts;
const to = { owner: `0x${'34'.repeat(20)}`, wallet: `0x${'12'.repeat(20)}` } as const;

/** A context whose log lines are kept. */
function contextWith(chain: { operator?: unknown; deployed?: unknown; kind: string }) {
  const lines: { msg: string; wallet?: string; level: number }[] = [];
  const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  return { ctx: { chain, logger } as unknown as AppContext, lines };
}

describe('creditThroughChain: a credit is on chain before the ledger takes it', () => {
  it('answers 503 and credits nothing when the chain does not take it', async () => {
    // Nothing listens on port 1.
    const operator = new ChainOperator(() => 'http://127.0.0.1:1', 31337, TEMPLATE_DEPLOYER_KEY);
    const { ctx, lines } = contextWith({ operator, deployed, kind: 'embedded' });
    let credited = false;
    await assert.rejects(creditThroughChain(ctx, to, 5n, async () => { credited = true; }), (error: unknown) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE' && /nothing was credited/.test(error.message));
    assert.equal(credited, false);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!.msg, /did not reach the chain/);
    assert.equal(lines[0]!.wallet, to.wallet);
  });

  it('answers 503 naming the transaction, and credits nothing, when the chain stopped answering after it was sent', async () => {
    const sent = `0x${'ab'.repeat(32)}` as const;
    const operator = { exclusive: async () => { throw new FateUnknownError([sent], new Error('fetch failed')); } };
    const { ctx, lines } = contextWith({ operator, deployed, kind: 'rpc' });
    let credited = false;
    await assert.rejects(creditThroughChain(ctx, to, 5n, async () => { credited = true; }), (error: unknown) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE' && error.message.includes(sent) && /may hold the collateral already/.test(error.message) && /check the transaction before trying again/.test(error.message));
    assert.equal(credited, false);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!.msg, /stopped answering/);
  });

  it('credits once the collateral is sent and the wallet deployed, and logs a credit refused after that', async () => {
    const sent: string[] = [];
    const steps = {
      send: async (call: ContractCall) => { sent.push(call.functionName); return '0x01'; },
      read: async () => false,
    } as unknown as OperatorSteps;
    const operator = { exclusive: <T>(work: (chain: OperatorSteps) => Promise<T>) => work(steps) };
    const { ctx, lines } = contextWith({ operator, deployed, kind: 'embedded' });
    const order: string[] = [];
    assert.equal(await creditThroughChain(ctx, to, 5n, async () => { order.push(`credit after ${sent.join(', ')}`); return 'balance'; }), 'balance');
    assert.deepEqual(order, ['credit after mint, deployWallet']);
    assert.equal(lines.length, 0);

    await assert.rejects(creditThroughChain(ctx, to, 5n, async () => { throw new Error('not the leader'); }), /not the leader/);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!.msg, /reached the chain but the ledger refused it/);
  });

  it('credits alone without a chain (CHAIN=none)', async () => {
    const { ctx } = contextWith({ operator: undefined, deployed: undefined, kind: 'none' });
    assert.equal(await creditThroughChain(ctx, to, 5n, async () => 'balance'), 'balance');
  });
});
