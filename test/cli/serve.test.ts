import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';
import { freePort } from '../helpers/process-server.ts';
import { killPrograms, runProgram } from '../helpers/program.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

describe('pmx serve: what it says while it boots', { skip: storeIndependent('the CLI') }, () => {
  before(() => ensureBuild());
  after(() => killPrograms());

  it('names each boot step, the chain and the signature backend, then serves, as the built JavaScript npm start runs: on the embedded chain by default', async () => {
    const start = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string;
    assert.match(start, new RegExp(`&& node (--enable-source-maps )?${BUILT_CLI} serve$`), 'npm start runs the built CLI with plain node');
    const port = await freePort();
    // The embedded store and the default chain whatever the suite runs on (an empty variable is unset).
    const serve = runProgram(BUILT_CLI, ['serve', '--port', String(port), '--data-dir', 'memory://'], { LOG_LEVEL: 'info', SIGNATURE_WORKERS: '1', DATABASE_URL: '', CHAIN: '' });
    await serve.line(/exchange listening on http:\/\/127\.0\.0\.1:/);
    const messages = serve.lines.flatMap((line) => {
      try {
        return [JSON.parse(line).msg as string];
      } catch {
        return [];
      }
    });
    const steps = [/^opening an in-memory PGlite database from the build's template$/, /^store open in \d+ ms$/, /^schema up to date \(checked in \d+ ms\)$/, /^chain: embedded \(anvil pid \d+ at http:\/\/127\.0\.0\.1:\d+, state in memory\), chain id 31337; contracts \(deployed here\): exchange 0x[0-9a-fA-F]{40}, .* \(ready in \d+ ms\)$/, /^order signatures: native libsecp256k1, 1 worker thread\(s\)$/, /^engine loaded 0 book\(s\) and 0 open order\(s\) in \d+ ms$/];
    let at = 0;
    for (const step of steps) {
      const found = messages.findIndex((message, i) => i >= at && step.test(message));
      assert.ok(found >= 0, `no line ${step} after line ${at} in:\n${messages.join('\n')}`);
      at = found + 1;
    }
    assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    const exchange = (await (await fetch(`http://127.0.0.1:${port}/api/v1/exchange`)).json()) as { chain: { kind: string; chainId: number } };
    assert.deepEqual([exchange.chain.kind, exchange.chain.chainId], ['embedded', 31337]);
    serve.interrupt();
    await serve.exit();
  });

  it('prints readable log lines on a terminal, JSON lines into a pipe', async (t) => {
    // `script` gives the server a pseudo-terminal as its standard output, as a person's shell does.
    if (spawnSync('script', ['--version']).status !== 0) return t.skip('no script(1) on this machine');
    const port = await freePort();
    const command = `exec ${process.execPath} ${BUILT_CLI} serve --port ${port} --data-dir memory://`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, LOG_LEVEL: 'info', SIGNATURE_WORKERS: '1', DATABASE_URL: '', TERM: 'xterm-256color' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    try {
      const deadline = Date.now() + 60_000;
      while (!/exchange listening on/.test(output) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of the terminal
      const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split(/\r?\n/).filter((line) => line.trim() !== '');
      const listening = lines.find((line) => line.includes('exchange listening on'));
      assert.ok(listening, `no listening line in:\n${output}`);
      assert.match(listening, /^\d\d:\d\d:\d\d\.\d{3} INFO +exchange listening on http:\/\/127\.0\.0\.1:/);
      for (const line of lines) assert.ok(!line.trimStart().startsWith('{"level"'), `a JSON line on the terminal: ${line}`);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }
  });

  it('says in one line, with exit code 3, that the port is in use', async () => {
    const holder: Server = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
    try {
      const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', String(port), '--data-dir', 'memory://'], { env: { ...process.env, ALLOW_GENERATED_KEYS: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 3);
      assert.equal(stdout, '', 'nothing was started');
      assert.deepEqual(stderr.trim().split('\n'), [`pmx: cannot listen on 127.0.0.1:${port}: the port is already in use (another exchange?); choose another with PORT or --port`]);
    } finally {
      holder.close();
    }
  });
  it('refuses a mistyped command with exit code 2, starting nothing: serve, the default command, takes flags only', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'pmx-typo-'));
    try {
      for (const argv of [['ordres'], ['serve', 'frobnicate', '--port', '1']]) {
        const run = spawnSync(process.execPath, [resolve(BUILT_CLI), ...argv], { cwd, env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8', timeout: 30_000 });
        assert.equal(run.status, 2, run.stdout + run.stderr);
        assert.equal(run.stderr.trim(), `pmx: unknown command '${argv.at(argv[0] === 'serve' ? 1 : 0)}' (pmx --help lists the commands; serve takes flags only)`);
      }
      assert.deepEqual(readdirSync(cwd), [], 'no data directory was made');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
  it('prints its version for --version and -V, starting nothing', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = spawnSync(process.execPath, [resolve(BUILT_CLI), flag], { env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8', timeout: 30_000 });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout.trim(), version);
    }
  });
  it('refuses a flag that names nothing it reads with exit code 2, naming the flag, the likely meant one and the known ones, starting nothing', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'pmx-flag-typo-'));
    try {
      // What each says first; the known flags follow, listed when they are few.
      const cases: [string[], string][] = [
        [['--prot', '3001'], "pmx serve: unknown flag '--prot' (did you mean --port?); every variable of README.md's Configuration table is also a flag (DATA_DIR is --data-dir), and pmx serve --help lists its own"],
        [['serve', '--demo', '--prot=3001'], "pmx serve: unknown flag '--prot' (did you mean --port?); every variable"],
        [['serve', '--verbose'], "pmx serve: unknown flag '--verbose'; every variable of README.md's Configuration table"],
        // A short flag is no command.
        [['-p', '3000'], "pmx serve: unknown flag '-p': flags are written whole, as --port 3000; every variable of README.md's Configuration table"],
        [['deploy', '-k', '0x1'], "pmx deploy: unknown flag '-k': flags are written whole, as --chain-rpc-url …; known flags: "],
        [['migrate', '--data-dri', './x'], "pmx migrate: unknown flag '--data-dri' (did you mean --data-dir?); every variable of README.md's Configuration table is also a flag (DATA_DIR is --data-dir), and pmx migrate --help lists its own"],
        [['audit', '--data-dri', './x'], "pmx audit: unknown flag '--data-dri' (did you mean --data-dir?); every variable"],
        [['deploy', '--chain-rpc-urll', 'http://127.0.0.1:1'], "pmx deploy: unknown flag '--chain-rpc-urll' (did you mean --chain-rpc-url?); known flags: "],
        // deploy reads what it deploys with, not the server's variables.
        [['deploy', '--port', '1'], "pmx deploy: unknown flag '--port'; known flags: --url, --admin-token, --json, --version, --chain-rpc-url, --operator-key, --chain-id, --exchange-name, --collateral-address, --conditional-tokens-address"],
      ];
      for (const [argv, said] of cases) {
        const run = spawnSync(process.execPath, [resolve(BUILT_CLI), ...argv], { cwd, env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8', timeout: 30_000 });
        assert.equal(run.status, 2, `${argv.join(' ')}: ${run.stdout}${run.stderr}`);
        assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
        assert.ok(run.stderr.startsWith(said), run.stderr);
      }
      const migrate = spawnSync(process.execPath, [resolve(BUILT_CLI), 'migrate', 'now'], { cwd, env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8', timeout: 30_000 });
      assert.equal(migrate.status, 2, migrate.stderr);
      assert.equal(migrate.stderr.trim(), "pmx: unknown command 'now' (pmx --help lists the commands; migrate takes flags only)");
      assert.deepEqual(readdirSync(cwd), [], 'no data directory was made');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
  it('says in one line, naming DATABASE_URL without its password, that the database cannot be reached: serve, migrate and audit alike', () => {
    const port = 1;
    for (const command of [['serve', '--port', '0'], ['migrate'], ['audit']]) {
      const run = spawnSync(process.execPath, [BUILT_CLI, ...command], { env: { ...process.env, DATABASE_URL: `postgresql://postgres:hidden@127.0.0.1:${port}/pmx`, ALLOW_GENERATED_KEYS: 'true', CHAIN: 'none', LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 30_000 });
      assert.equal(run.status, 1, `${command[0]}: ${run.stdout}${run.stderr}`);
      assert.equal(run.stderr.trim(), `configuration error: cannot reach the PostgreSQL database of DATABASE_URL (127.0.0.1:${port}/pmx): connect ECONNREFUSED 127.0.0.1:${port}`, command[0]);
    }
  });
});
