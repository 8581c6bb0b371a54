#!/usr/bin/env node
// Builds what the repository ships: the SDK package (packages/client/dist), the server
// (dist/server/main.js, JavaScript that `npm start` runs with plain node), the template a new
// embedded database starts from (dist/pglite-template.tar.gz), the Solidity contracts
// (dist/contracts, scripts/compile-contracts.mjs), the template a new embedded chain starts from
// (dist/chain-template.json, those contracts deployed) and the web app
// (dist/web, served at /). Run by `npm install` / `npm ci` (the `prepare` script) and `npm run build`.
// With --if-stale (npm start, demo, cli and test) a part is rebuilt only when one of its inputs is newer
// than its output, so a fresh checkout builds once and an edited source never runs stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_BUNDLE, WORKER_ENTRIES } from './node-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ifStale = process.argv.includes('--if-stale');

const PARTS = [
  {
    name: 'SDK package',
    output: 'packages/client/dist/client/index.js',
    inputs: ['src/client', 'src/contract', 'src/core', 'packages/client/package.json', 'packages/client/tsconfig.json', 'tsconfig.json'],
    build: () => tsc('packages/client/tsconfig.json'),
  },
  {
    name: 'server',
    output: 'dist/server/main.js',
    inputs: ['src', 'examples', 'tsconfig.json', 'package-lock.json', 'scripts/node-bundle.mjs'],
    ignore: 'src/web',
    build: buildServer,
  },
  {
    name: 'embedded database template',
    output: 'dist/pglite-template.tar.gz',
    inputs: ['src/store', 'package-lock.json'],
    build: () => run(['--import', 'tsx', '--input-type=module', '-e', "const { writePgliteTemplate } = await import('./src/store/pglite-template.ts'); await writePgliteTemplate('dist/pglite-template.tar.gz');"]),
  },
  {
    name: 'contracts',
    output: 'dist/contracts/PmxExchange.json',
    inputs: ['contracts', 'scripts/compile-contracts.mjs', 'package-lock.json'],
    ignore: 'contracts/README.md',
    build: () => run(['scripts/compile-contracts.mjs']),
  },
  {
    // After the contracts: the template deploys them.
    name: 'embedded chain template',
    output: 'dist/chain-template.json',
    inputs: ['src/chain', 'src/settlement/contracts', 'dist/contracts', 'package-lock.json'],
    build: buildChainTemplate,
  },
  {
    name: 'web app',
    output: 'dist/web/index.html',
    inputs: ['src/web', 'src/client', 'src/contract', 'src/core'],
    build: buildWeb,
  },
];

function tsc(project) {
  const compiler = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(compiler)) fail(`cannot build: TypeScript is not installed (install the development dependencies: npm install)`);
  run([compiler, '-p', join(root, project)]);
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) fail(`the build step failed: node ${args.join(' ')}`);
}

/**
 * Packages bundled into the server with the code that imports them: pure JavaScript whose
 * hundreds of module files (viem, TypeBox, Kysely, Fastify) took about half a second of boot to
 * find and load one by one. Every other package stays an ordinary import from node_modules: those
 * that find files beside themselves (PGlite's WASM, socket.io's client, the docs UI's assets,
 * pino's transports), the native secp256k1 binding, and the drivers loaded only when configured
 * (pg, redis). `pmx-client` is the SDK's own source (src/client, through tsconfig paths).
 */
const BUNDLED_PACKAGES = ['viem', 'typebox', 'kysely', '@noble/hashes', 'jose', 'commander', 'ajv', 'ajv-formats', 'fast-json-stringify', 'prom-client', 'fastify', '@fastify/type-provider-typebox', 'helmet', 'socket.io-client', 'pmx-client'];

/**
 * The server as JavaScript for plain node: one module for the CLI and the server (the CLI's other
 * commands load their parts as chunks), and the signature worker beside it (the pool starts
 * `worker.js` from the directory of the module that starts it, which may be a chunk).
 */
async function buildServer() {
  const esbuild = await import('esbuild').catch(() => fail('cannot build: esbuild is not installed (install the development dependencies: npm install)'));
  const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const outdir = join(root, 'dist/server');
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: 'src/cli/main.ts', ...WORKER_ENTRIES },
    outdir,
    // Chunks sit beside main.js and worker.js: the signature pool, wherever it lands, starts `./worker.js`.
    chunkNames: '[name]-[hash]',
    ...NODE_BUNDLE,
    logLevel: 'warning',
    // Bundled CommonJS packages call require(); in an ES module it has to be made.
    banner: { js: "import { createRequire as __pmxCreateRequire } from 'node:module'; const require = __pmxCreateRequire(import.meta.url);" },
    plugins: [{
      name: 'bundle-only-listed-packages',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
          if (path.startsWith('node:') || importer.includes('/node_modules/')) return undefined;
          return BUNDLED_PACKAGES.includes(packageName(path)) ? undefined : { path, external: true };
        });
      },
    }],
  });
}

/**
 * The chain template (src/chain/chain-template.ts): anvil with the contracts deployed, dumped. Where
 * anvil has no binary the part is skipped with the reason: the server then runs CHAIN=none or rpc.
 */
function buildChainTemplate() {
  const script = `
    const { ConfigError } = await import('./src/config.ts');
    const { chainTemplateFiles, writeChainTemplate } = await import('./src/chain/chain-template.ts');
    try {
      await writeChainTemplate(chainTemplateFiles((name) => 'dist/' + name));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.warn('chain template not built: ' + error.message);
    }`;
  run(['--import', 'tsx', '--input-type=module', '-e', script]);
  return existsSync(join(root, 'dist/chain-template.json'));
}

async function buildWeb() {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    // Vite is a development dependency: the server then runs without the web app, and says so.
    console.warn('web app not built: vite is not installed (install the development dependencies to build it)');
    return false;
  }
  await vite.build({ configFile: join(root, 'src/web/vite.config.ts'), logLevel: 'warn' });
}

function isStale(part) {
  const output = join(root, part.output);
  if (!existsSync(output)) return true;
  const builtAt = statSync(output).mtimeMs;
  const ignored = part.ignore ? join(root, part.ignore) : undefined;
  return part.inputs.some((input) => newerThan(join(root, input), builtAt, ignored));
}

function newerThan(path, time, ignored) {
  if (path === ignored || !existsSync(path)) return false;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs > time;
  return readdirSync(path).some((name) => newerThan(join(path, name), time, ignored));
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

for (const part of PARTS) {
  if (ifStale && !isStale(part)) continue;
  const started = Date.now();
  if ((await part.build()) === false) continue;
  // The output marks when the part was built, even where the compiler left an unchanged file as it was.
  const now = new Date();
  utimesSync(join(root, part.output), now, now);
  console.log(`built the ${part.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
