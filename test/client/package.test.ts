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
import { storeIndependent } from '../helpers/store-independent.ts';

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

/** The README's files and command lines, exactly as printed there. */
function readmeProject() {
  const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
  const block = (pattern: RegExp, what: string) => {
    const found = pattern.exec(readme);
    assert.ok(found, `the README shows ${what}`);
    return found[1]!;
  };
  return {
    packageJson: block(/`package\.json`[\s\S]*?:\n\n```json\n([\s\S]*?)```/, 'package.json'),
    tsconfig: block(/`tsconfig\.json`[\s\S]*?:\n\n```json\n([\s\S]*?)```/, 'tsconfig.json'),
    bot: block(/```ts\n(\/\/ bot\.ts\n[\s\S]*?)```/, 'bot.ts'),
    install: block(/```sh\n(npm install \S+\.tgz[^\n]*)\n```/, 'the install line'),
    run: block(/```sh\n(npx tsc[^\n]*)\n```/, 'the run line'),
  };
}

describe('pmx-client as another project installs it', { skip: storeIndependent('the packed SDK') }, () => {
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

    // The README's three files, as printed, in an empty directory.
    const readme = readmeProject();
    assert.equal(JSON.parse(readme.packageJson).type, 'module');
    writeFileSync(join(project, 'package.json'), readme.packageJson);
    writeFileSync(join(project, 'tsconfig.json'), readme.tsconfig);
    writeFileSync(join(project, 'bot.ts'), readme.bot);
    // The README's install line, run command by command: the tarball and viem, then TypeScript and
    // Node's types as dev dependencies. Packages at the versions the exchange is tested with, from
    // npm's cache where it can (the exchange's own install put them there).
    const commands = readme.install.split(' && ').map((command) => command.trim().split(/\s+/));
    assert.deepEqual(commands.map((words) => words.filter((word) => !word.endsWith('.tgz'))), [['npm', 'install', 'viem'], ['npm', 'install', '--save-dev', 'typescript', '@types/node']]);
    const pinned = (word: string) => (word.endsWith('.tgz') ? tarball : ['viem', 'typescript', '@types/node'].includes(word) ? `${word}@${installed(word)}` : word);
    for (const [, ...args] of commands) npm([...args.map(pinned), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.devDependencies).sort(), ['@types/node', 'typescript']);

    const modules = readdirSync(join(project, 'node_modules'));
    for (const serverPackage of ['fastify', '@electric-sql', 'pg', 'kysely', 'redis', 'socket.io', 'pino']) {
      assert.ok(!modules.includes(serverPackage), `${serverPackage} is not installed with the SDK`);
    }

    // The README's run line, by a shell in the project (`npx tsc` finds the TypeScript just installed).
    // Not spawnSync: the exchange the bot talks to runs in this process and must keep serving.
    assert.equal(readme.run, 'npx tsc && node bot.js');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
    const bot = await exec('sh', ['-c', readme.run], { cwd: project, env: { ...env, PMX_URL: server.url }, timeout: 120_000 });
    assert.ok(existsSync(join(project, 'bot.js')));
    const lines = bot.stdout.trim().split('\n');
    assert.match(lines[0]!, /^bid 10 YES of ".+" at 0\.01: order [0-9a-f-]{36} is PENDING$/);
    assert.equal(lines[1], 'collateral: 99.9 available, 0.1 locked by the order');
    assert.equal(lines[2], 'cancelled; 100 available again');
  });
});
