import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import type { AppContext } from '../../src/api/context.ts';
import { creditOnChain } from '../../src/api/account/credit-on-chain.ts';
import { buildOutput } from '../../src/build-output.ts';
import { chainTemplateFiles } from '../../src/chain/index.ts';
import { TEMPLATE_DEPLOYER_KEY } from '../../src/chain/deployment.ts';
import { ChainOperator } from '../../src/chain/operator.ts';

const deployed = JSON.parse(readFileSync(chainTemplateFiles(buildOutput).deploymentFile, 'utf8')).contracts;

describe('creditOnChain', () => {
  it('logs a chain that does not answer and resolves: the durable credit stands', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } }));
    // Nothing listens on port 1.
    const operator = new ChainOperator(() => 'http://127.0.0.1:1', 31337, TEMPLATE_DEPLOYER_KEY);
    const ctx = { chain: { operator, deployed }, logger } as unknown as AppContext;
    const wallet = `0x${'12'.repeat(20)}` as const;
    await creditOnChain(ctx, { owner: `0x${'34'.repeat(20)}`, wallet }, 5n);
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!);
    assert.match(line.msg, /not mirrored on chain/);
    assert.equal(line.wallet, wallet);
  });

  it('does nothing without an operator (CHAIN=none)', async () => {
    const ctx = { chain: { operator: undefined, deployed: undefined }, logger: pino({ level: 'silent' }) } as unknown as AppContext;
    await creditOnChain(ctx, { owner: `0x${'34'.repeat(20)}`, wallet: `0x${'12'.repeat(20)}` }, 5n);
  });
});
