#!/usr/bin/env node
// Builds what the repository ships: the SDK package (packages/client/dist), the server
// (dist/server, compiled JavaScript that `npm start` runs with plain node) and the web app
// (dist/web, served at /). Run by `npm install` / `npm ci` (the `prepare` script) and `npm run build`.
// With --if-stale (npm start, npm test) a part is rebuilt only when one of its inputs is newer
// than its output, so a fresh checkout builds once and an edited source never runs stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
    output: 'dist/server/src/cli/main.js',
    inputs: ['src', 'examples', 'tsconfig.json', 'tsconfig.build.json'],
    ignore: 'src/web',
    build: () => tsc('tsconfig.build.json'),
  },
  {
    name: 'web app',
    output: 'dist/web/index.html',
    inputs: ['src/web', 'src/client', 'src/contract', 'src/core'],
    build: buildWeb,
  },
];

for (const part of PARTS) {
  if (ifStale && !isStale(part)) continue;
  const started = Date.now();
  if ((await part.build()) === false) continue;
  // The output marks when the part was built, even where the compiler left an unchanged file as it was.
  const now = new Date();
  utimesSync(join(root, part.output), now, now);
  console.log(`built the ${part.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function tsc(project) {
  const compiler = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(compiler)) fail(`cannot build: TypeScript is not installed (install the development dependencies: npm install)`);
  const result = spawnSync(process.execPath, [compiler, '-p', join(root, project)], { stdio: 'inherit' });
  if (result.status !== 0) fail(`the build of ${project} failed`);
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
