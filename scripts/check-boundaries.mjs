#!/usr/bin/env node
// Checks the module boundaries of src/ (DESIGN.md, Layout): each module may import only what its
// README's "May import" line allows. The rules are the table below; keep it and the READMEs in
// step. Exits 1 with the list of offending `file -> import`.
//
//   npm run check:boundaries
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What no module below the HTTP app may import: the app, the operator commands, the boot code. */
export const SERVER_EDGE = ['api/', 'cli/', 'server.ts'];

/** A service module: the src/ modules and top-level files it may read; any npm package. */
const service = (...allow) => ({ allow, anyPackage: true });

/**
 * One rule per module (a folder of src/), as its README's "May import" line says. `allow`: what its
 * files may import besides their own module: `contract/` (a folder), `core/money.ts` (one file),
 * `typebox` (a package, with its subpaths), `type:typebox` (type-only imports of it), `node:`
 * (Node's built-ins), `*.css`. `anyPackage`: npm packages are not checked. `ignore`: files the
 * rule does not cover. Type-only imports count: a boundary is about what a module knows, not only
 * what it loads. Modules without a rule (api, cli, the boot files) sit at the top and may import
 * anything.
 */
export const RULES = {
  contract: { allow: ['typebox'] },
  // The wire formats its parsers accept (a file that imports nothing); keccak (core/keccak.ts).
  core: { allow: ['contract/formats.ts', 'viem', 'hash-wasm'] },
  // The SDK re-exports the exchange's own exact arithmetic (pure core files, no I/O) rather than a
  // copy of it: display units <-> base units, and the fee formula for previews.
  client: { allow: ['contract/', 'type:typebox', 'viem', 'socket.io-client', '@noble/hashes', 'core/money.ts', 'core/book/fees.ts'] },
  web: { allow: ['client/', 'contract/', 'react', 'react-dom', 'viem', 'lightweight-charts', '*.css'], ignore: ['web/vite.config.ts'] },
  identity: service('contract/', 'store/', 'shared-state/', 'clock.ts', 'config.ts'),
  orders: service('contract/', 'core/', 'engine/', 'type:settlement/', 'store/', 'type:events/', 'type:identity/caller.ts', 'clock.ts', 'config.ts'),
  'market-data': service('contract/', 'core/', 'store/', 'type:catalogue/', 'engine/shapes.ts', 'clock.ts'),
  catalogue: service(
    'contract/', 'core/', 'store/', 'settlement/market-ids.ts', 'type:engine/', 'type:orders/order-queries.ts', 'type:rewards/market-reward.ts', 'clock.ts', 'config.ts',
  ),
  portfolio: service('contract/', 'core/', 'store/', 'settlement/', 'market-data/', 'type:events/', 'clock.ts'),
  oracle: service('contract/', 'core/', 'store/', 'settlement/', 'type:engine/engine.ts', 'clock.ts'),
  prices: service('contract/', 'core/', 'store/', 'catalogue/price-targets.ts', 'type:catalogue/', 'clock.ts', 'config.ts'),
  templates: service('contract/', 'core/', 'store/', 'catalogue/admin.ts', 'type:catalogue/', 'rewards/config.ts', 'clock.ts'),
  settlement: service('core/', 'store/', 'clock.ts', 'build-output.ts'),
  engine: service('contract/', 'core/', 'settlement/', 'store/', 'type:events/', 'market-data/trade-activity.ts', 'clock.ts', 'worker-module.ts'),
  realtime: service('contract/', 'type:events/', 'shared-state/'),
  rewards: service('core/', 'store/', 'settlement/', 'type:events/', 'clock.ts'),
  // The chain runner: anvil, the contracts' deployment, the chain's files; ConfigError for what the configuration must change.
  chain: service('config.ts', 'data-dir-lock.ts', 'settlement/contracts/', 'settlement/chain/recent-log.ts', 'core/transaction-fees.ts', 'core/node-answers.ts'),
  'conditional-tokens': service('contract/', 'chain/', 'type:engine/', 'settlement/accounts.ts', 'store/', 'type:events/'),
  cluster: service('contract/', 'engine/queue-full-error.ts', 'store/'),
  store: service('core/', 'worker-module.ts', 'data-dir-lock.ts'),
  jobs: service(),
  events: service(),
  'shared-state': service(),
};

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist']);

function sourceFiles(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIP_DIRS.has(name)) out = out.concat(sourceFiles(path));
    } else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * The module specifiers a source text imports: static imports and re-exports (at the start of a
 * line, as this repo writes them, so examples inside comments do not count), side-effect imports
 * and dynamic `import('...')`; `typeOnly` for `import type` and `export type`.
 */
export function specifiersOf(text) {
  const found = [];
  for (const match of text.matchAll(/^(import|export)(\s+type)?\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: match[3], typeOnly: match[2] !== undefined });
  for (const match of text.matchAll(/^import\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: match[1], typeOnly: false });
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ specifier: match[1], typeOnly: false });
  return found;
}

/** Every import of every source file under `src` of `root`: `{file, specifier, target, typeOnly}`, paths relative to src. */
export function collectImports(root) {
  const src = join(root, 'src');
  const imports = [];
  for (const path of sourceFiles(src)) {
    const file = relative(src, path).split(sep).join('/');
    for (const { specifier, typeOnly } of specifiersOf(readFileSync(path, 'utf8'))) {
      const target = specifier.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), specifier)) : undefined;
      imports.push({ file, specifier, target, typeOnly });
    }
  }
  return imports;
}

/** The module of a path relative to src: its first folder, or the file itself at the top. */
export const moduleOf = (path) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);

/** The package a bare specifier names: `typebox/compile` → `typebox`, `@noble/hashes/sha2` → `@noble/hashes`. */
function packageOf(specifier) {
  if (specifier.startsWith('node:')) return 'node:';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function matches(entry, { specifier, target, typeOnly }) {
  if (entry.startsWith('type:')) return typeOnly === true && matches(entry.slice('type:'.length), { specifier, target });
  if (target !== undefined) {
    if (entry.startsWith('*.')) return target.endsWith(entry.slice(1));
    return entry.endsWith('/') ? target.startsWith(entry) : target === entry;
  }
  return entry === packageOf(specifier);
}

/** The imports that break a rule: `{file, specifier, why}`. */
export function violations(imports, rules = RULES) {
  const out = [];
  for (const imported of imports) {
    const name = moduleOf(imported.file);
    const rule = rules[name];
    if (!rule || rule.ignore?.includes(imported.file)) continue;
    const { target } = imported;
    if (target?.startsWith('../')) {
      out.push({ ...imported, why: 'reaches outside src/' });
    } else if (target !== undefined && moduleOf(target) === name) {
    } else if (target === undefined && rule.anyPackage) {
    } else if (!rule.allow.some((entry) => matches(entry, imported))) {
      const allowed = rule.allow.length > 0 ? `only ${rule.allow.join(', ')}` : 'nothing outside itself';
      out.push({ ...imported, why: `${name}/ may import ${allowed}${rule.anyPackage ? ' (and npm packages)' : ''}` });
    }
  }
  return out;
}

/** Rules that open the server's edge to a module below it (a mistake in the table itself). */
export function edgeOpenings(rules = RULES) {
  return Object.entries(rules).flatMap(([name, rule]) => rule.allow.filter((entry) => SERVER_EDGE.includes(entry)).map((entry) => `${name}/ allows ${entry}`));
}

function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const imports = collectImports(root);
  const problems = [
    ...edgeOpenings().map((text) => `the table: ${text}`),
    ...Object.keys(RULES).filter((name) => !imports.some((i) => moduleOf(i.file) === name)).map((name) => `the table: no file imports anything in src/${name} (renamed?)`),
    ...violations(imports).map((v) => `src/${v.file} -> ${v.specifier}  (${v.why})`),
  ];
  if (problems.length > 0) {
    console.error(`check-boundaries: ${problems.length} problem(s):`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`check-boundaries: ${imports.length} imports, ${Object.keys(RULES).length} modules, every import within its module's rule`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
