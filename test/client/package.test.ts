import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createClient } from '../../src/client/index.ts';
import { seedDemo } from '../../src/cli/demo.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server.ts';

const exec = promisify(execFile);
const PACKAGE_DIR = resolve('packages/client');
const ROOT_LOCK = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string }> };
const installed = (name: string) => ROOT_LOCK.packages[`node_modules/${name}`]!.version!;

/** npm as a user runs it: none of the npm_* settings of the `npm test` that runs this file. */
function npm(args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  const result = spawnSync('npm', args, { cwd, env, encoding: 'utf8' });
  assert.equal(result.status, 0, `npm ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The README's first trade, exactly as printed there. */
function readmeBot(): string {
  const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
  const block = /```ts\n(\/\/ bot\.ts\n[\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README shows bot.ts');
  return block[1]!;
}

describe('pmx-client as another project installs it', () => {
  let server: TestServer;
  let project: string;

  before(async () => {
    project = mkdtempSync(join(tmpdir(), 'pmx-bot-'));
    server = await startTestServer({ CLOCK: 'real' });
    await seedDemo(createClient({ baseUrl: server.url, credentials: { adminToken: ADMIN_TOKEN } }));
  });
  after(async () => {
    await server.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('packs, installs into an empty strict NodeNext project without the server, compiles, and runs the README bot with plain node', async () => {
    const tarball = join(project, npm(['pack', '--silent', '--pack-destination', project], PACKAGE_DIR).trim().split('\n').at(-1)!);
    const packed = npm(['pack', '--dry-run', '--json', '--silent'], PACKAGE_DIR);
    const files = (JSON.parse(packed) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
    assert.ok(files.includes('dist/client/index.js') && files.includes('dist/client/index.d.ts'), 'compiled JavaScript and declarations');
    assert.deepEqual(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')), [], 'no TypeScript source');

    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-bot', private: true, type: 'module' }));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: ['node'], outDir: '.' },
      files: ['bot.ts'],
    }));
    writeFileSync(join(project, 'bot.ts'), readmeBot());
    // From npm's cache where it can (the exchange's own install put these versions there).
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, `viem@${installed('viem')}`, `typescript@${installed('typescript')}`, `@types/node@${installed('@types/node')}`], project);

    const modules = readdirSync(join(project, 'node_modules'));
    for (const serverPackage of ['fastify', '@electric-sql', 'pg', 'kysely', 'redis', 'socket.io', 'pino']) {
      assert.ok(!modules.includes(serverPackage), `${serverPackage} is not installed with the SDK`);
    }

    const tsc = spawnSync(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, `tsc:\n${tsc.stdout}${tsc.stderr}`);
    assert.ok(existsSync(join(project, 'bot.js')));

    // Not spawnSync: the exchange the bot talks to runs in this process and must keep serving.
    const bot = await exec(process.execPath, ['bot.js'], { cwd: project, env: { PATH: process.env.PATH, PMX_URL: server.url }, timeout: 60_000 });
    const lines = bot.stdout.trim().split('\n');
    assert.match(lines[0]!, /^bid 10 YES of ".+" at 0\.01: order [0-9a-f-]{36} is PENDING$/);
    assert.equal(lines[1], 'collateral: 99.9 available, 0.1 locked by the order');
    assert.equal(lines[2], 'cancelled; 100 available again');
  });
});
