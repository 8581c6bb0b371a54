#!/usr/bin/env node
// Compiles contracts/ with solc-js (the npm compiler: no toolchain download) into
// dist/contracts/<Name>.json {abi, bytecode, deployedBytecode}, one file per deployable contract,
// and copies ConditionalTokens' published artifact beside them unchanged (it is never recompiled).
// It takes 5.5 s of CPU on these machines (solc-js is WebAssembly; 9 s of wall time with the two
// cores busy); scripts/build.mjs runs it only when a source changed.
//
// Optimizer runs: 200. A million runs saved 1.5k gas on a match's first fill and 0.7k on each
// extra one (under 1%) for 1.4 s more of compiling, so the build stays the faster one. EVM version
// cancun, which every chain the exchange targets (Polygon, Base, anvil) runs.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = loadCompiler();
const root = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = join(root, 'contracts');
const outputDir = join(root, 'dist/contracts');

/** The contracts a deployment needs; the rest of contracts/ are their parts. */
const DEPLOYABLE = ['PmxExchange', 'LocalCollateral', 'ProxyWalletFactory', 'ProxyWallet'];

/** solc is a development dependency, like the other compilers of the build. */
function loadCompiler() {
  try {
    return require('solc');
  } catch {
    console.error('cannot build the contracts: solc is not installed (install the development dependencies: npm install)');
    process.exit(1);
  }
}

function solidityFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return solidityFiles(path);
    return name.endsWith('.sol') ? [path] : [];
  });
}

/** Imports outside contracts/ are packages (OpenZeppelin), read from node_modules. */
function findImport(path) {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `not found: ${path}` };
  }
}

const sources = Object.fromEntries(
  solidityFiles(sourceDir).map((path) => [relative(root, path).split(sep).join('/'), { content: readFileSync(path, 'utf8') }]),
);
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
for (const message of output.errors ?? []) console.error(message.formattedMessage);
if (errors.length > 0) process.exit(1);

mkdirSync(outputDir, { recursive: true });
const compiled = Object.values(output.contracts).reduce((all, file) => Object.assign(all, file), {});
for (const name of DEPLOYABLE) {
  const contract = compiled[name];
  if (!contract) throw new Error(`contracts/ has no contract named ${name}`);
  writeArtifact(name, contract.abi, `0x${contract.evm.bytecode.object}`, `0x${contract.evm.deployedBytecode.object}`);
}
const conditionalTokens = require('@gnosis.pm/conditional-tokens-contracts/build/contracts/ConditionalTokens.json');
writeArtifact('ConditionalTokens', conditionalTokens.abi, conditionalTokens.bytecode, conditionalTokens.deployedBytecode);

function writeArtifact(name, abi, bytecode, deployedBytecode) {
  writeFileSync(join(outputDir, `${name}.json`), `${JSON.stringify({ abi, bytecode, deployedBytecode })}\n`);
}
