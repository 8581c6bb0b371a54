#!/usr/bin/env node
// Builds the trading web app (src/web) into dist/web, which the server serves at /.
// Run by `npm install` / `npm ci` (the `prepare` script) and by `npm start` when no build exists
// (`--if-missing`). Vite is a development dependency: an install without it skips the build and
// says so, and the server then runs without the web app.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const index = `${root}dist/web/index.html`;
if (process.argv.includes('--if-missing') && existsSync(index)) process.exit(0);

let vite;
try {
  vite = await import('vite');
} catch {
  console.warn('web app not built: vite is not installed (install the development dependencies to build it)');
  process.exit(0);
}
await vite.build({ configFile: `${root}src/web/vite.config.ts`, logLevel: 'warn' });
console.log(`web app built into ${root}dist/web`);
