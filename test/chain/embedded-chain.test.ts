import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { DEFAULT_EXCHANGE_NAME } from '../../src/config.ts';
import { buildOutput } from '../../src/build-output.ts';
import { chainTemplateFiles, EmbeddedChain } from '../../src/chain/index.ts';
import { callJsonRpc } from '../../src/chain/json-rpc.ts';
import { restartDelayMs } from '../../src/chain/embedded-chain.ts';
import { storeIndependent } from '../helpers/store-independent.ts';
import { projectPath } from '../../src/build-output.ts';

const template = chainTemplateFiles(buildOutput);
const logger = pino({ level: 'silent' });
const dirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-chain-'));
  dirs.push(dir);
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, limitMs = 3_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return !alive(pid);
}

/**
 * A block with a transfer, sent from anvil's unlocked first account straight to anvil (not through
 * /rpc), once mined: anvil answers the send a few milliseconds before it mines the block, and a
 * stop in between would dump the state without it.
 */
async function mineTransfer(url: string): Promise<string> {
  const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
  const hash = await callJsonRpc<string>(url, 'eth_sendTransaction', [{ from, to: '0x000000000000000000000000000000000000dEaD', value: '0x1234' }]);
  while ((await callJsonRpc<unknown>(url, 'eth_getTransactionReceipt', [hash])) === null) await new Promise((resolve) => setTimeout(resolve, 5));
  return hash;
}

describe('the embedded chain (CHAIN=embedded)', { skip: storeIndependent('the chain') }, () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('starts a new data directory from the template: deployed code at the recorded addresses', async () => {
    assert.ok(existsSync(template.stateFile), 'the build made the chain template');
    const recorded = JSON.parse(readFileSync(template.deploymentFile, 'utf8'));
    const dir = dataDir();
    const chain = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger });
    try {
      assert.deepEqual(chain.deployment.contracts, recorded.contracts);
      const code = await callJsonRpc<string>(chain.url, 'eth_getCode', [recorded.contracts.conditionalTokens, 'latest']);
      assert.ok(code.length > 1_000, 'ConditionalTokens has code');
      assert.equal(JSON.parse(readFileSync(join(dir, 'chain', 'deployment.json'), 'utf8')).chainId, 31337);
    } finally {
      await chain.close();
    }
  });

  it('stops anvil on close, leaving its state in the data directory', async () => {
    const dir = dataDir();
    const chain = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger });
    const pid = chain.pid;
    assert.ok(alive(pid));
    const templateHeight = Number(await callJsonRpc<string>(chain.url, 'eth_blockNumber'));
    await mineTransfer(chain.url);
    await chain.close();
    assert.ok(await gone(pid), 'no anvil left after close');
    const again = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger });
    try {
      // The template's deployment blocks and the transfer's block survived the graceful stop.
      assert.equal(Number(await callJsonRpc<string>(again.url, 'eth_blockNumber')), templateHeight + 1);
    } finally {
      await again.close();
    }
  });

  it('starts from the dump before a torn one (anvil killed while writing it), and sets the torn one aside', async () => {
    const dir = dataDir();
    const chain = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger });
    const templateHeight = Number(await callJsonRpc<string>(chain.url, 'eth_blockNumber'));
    await mineTransfer(chain.url);
    await chain.close();
    const dump = join(dir, 'chain', 'state.dump.json');
    const whole = readFileSync(dump, 'utf8');
    writeFileSync(dump, whole.slice(0, whole.length / 2));
    const again = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger });
    try {
      // The template's state: its deployment blocks, without the transfer of the torn dump.
      assert.equal(Number(await callJsonRpc<string>(again.url, 'eth_blockNumber')), templateHeight);
      assert.ok(existsSync(join(dir, 'chain', 'state.torn.json')));
    } finally {
      await again.close();
    }
  });

  it('refuses a data directory whose chain runs under another chain id', async () => {
    const dir = dataDir();
    await (await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger })).close();
    await assert.rejects(EmbeddedChain.start({ chainId: 137, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger }), /runs under chain id 31337, not CHAIN_ID=137/);
  });

  it('restarts anvil after kill -9 from its persisted state, on the same port', async () => {
    const dir = dataDir();
    const chain = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger, stateIntervalS: 1 });
    try {
      const url = chain.url;
      const hash = await mineTransfer(url);
      // Past one state interval: the transfer is in the dump a kill -9 leaves behind.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const killedPid = chain.pid;
      const down = new Promise((resolve) => chain.once('down', resolve));
      const ready = new Promise<string>((resolve) => chain.once('ready', resolve));
      const killedAt = performance.now();
      process.kill(killedPid, 'SIGKILL');
      assert.deepEqual(await down, { code: null, signal: 'SIGKILL' });
      assert.equal(await ready, url);
      console.log(`anvil restarted ${Math.round(performance.now() - killedAt)} ms after kill -9`);
      assert.ok(chain.ready);
      assert.notEqual(chain.pid, killedPid);
      const receipt = await callJsonRpc<{ status: string } | null>(chain.url, 'eth_getTransactionReceipt', [hash]);
      assert.equal(receipt?.status, '0x1', 'the transfer before the last dump is kept');
    } finally {
      await chain.close();
    }
  });

  it('keeps trying to restart an anvil that cannot load its state, and closes at once meanwhile', async () => {
    const dir = dataDir();
    const chain = await EmbeddedChain.start({ chainId: 31337, exchangeName: DEFAULT_EXCHANGE_NAME, dataDir: dir, template, logger });
    const down = new Promise((resolve) => chain.once('down', resolve));
    rmSync(join(dir, 'chain', 'state.dump.json'), { force: true });
    writeFileSync(join(dir, 'chain', 'state.json'), 'not a state');
    process.kill(chain.pid, 'SIGKILL');
    await down;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(chain.ready, false);
    const closingAt = performance.now();
    await chain.close();
    assert.ok(performance.now() - closingAt < 1_000, 'close does not wait out the backoff');
  });

  it('leaves no anvil behind when the server process is killed', async () => {
    const holder = spawn(process.execPath, ['--import', 'tsx', projectPath('test/chain/fixtures/hold-embedded-chain.ts'), dataDir()], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      let text = '';
      holder.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /anvil-pid (\d+)/.exec(text);
        if (match) resolve(Number(match[1]));
      });
      holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    assert.ok(alive(pid));
    holder.kill('SIGKILL');
    assert.ok(await gone(pid), 'anvil stopped when its server died');
  });

  it('backs off between restarts of a run of crashes', () => {
    assert.deepEqual([0, 1, 2, 3, 10].map(restartDelayMs), [0, 250, 500, 1_000, 10_000]);
  });
});
