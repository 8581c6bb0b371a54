import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChainDeployment } from './deployment.ts';

/** A chain's state as anvil dumps it, and the record of the contracts deployed in it. */
export interface ChainFiles {
  readonly stateFile: string;
  readonly deploymentFile: string;
}

/**
 * A data directory's chain. Anvil rewrites its dump in place (open with O_TRUNC, then write), so a
 * kill -9 in the middle of a write leaves a torn file. It therefore dumps to `dumpFile`, and each
 * start first promotes a whole dump to `stateFile`, the one anvil loads: a torn dump is set aside
 * and the chain starts from the dump before it.
 */
export interface ChainDirectory extends ChainFiles {
  readonly dumpFile: string;
  readonly tornFile: string;
}

/** What the data directory records of its chain: the template's deployment, and the chain id it runs under. */
export interface ChainRecord extends ChainDeployment {
  readonly chainId: number;
}

/** Where a data directory keeps its chain: `chain/` beside the embedded database's files. */
export function chainFilesIn(dataDir: string): ChainDirectory {
  const file = (name: string) => join(dataDir, 'chain', name);
  return { stateFile: file('state.json'), deploymentFile: file('deployment.json'), dumpFile: file('state.dump.json'), tornFile: file('state.torn.json') };
}

/**
 * The recorded deployment of a data directory's chain, or undefined when it has none yet. The
 * record is written last when a chain is made, so a chain without one is unfinished and made again.
 */
export function readRecord(files: ChainFiles): ChainRecord | undefined {
  return existsSync(files.deploymentFile) ? (JSON.parse(readFileSync(files.deploymentFile, 'utf8')) as ChainRecord) : undefined;
}

export function readDeployment(file: string): ChainDeployment {
  return JSON.parse(readFileSync(file, 'utf8')) as ChainDeployment;
}

/** Writes a deployment (or a data directory's record) whole or not at all: to a temporary file, then renamed. */
export function writeDeployment(file: string, deployment: ChainDeployment | ChainRecord): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(deployment, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** Starts a data directory's chain over from the template: its state copied, then its record. */
export function seedFromTemplate(files: ChainFiles, template: ChainFiles, chainId: number): ChainRecord {
  mkdirSync(dirname(files.stateFile), { recursive: true });
  copyFileSync(template.stateFile, files.stateFile);
  const record = { chainId, ...readDeployment(template.deploymentFile) };
  writeDeployment(files.deploymentFile, record);
  return record;
}

/** Removes an unfinished chain (a state without its record) before it is made again. */
export function removeChain(files: ChainDirectory): void {
  for (const file of [files.stateFile, files.dumpFile, files.deploymentFile]) rmSync(file, { force: true });
}

/**
 * Makes anvil's last dump the state the next start loads, when it is whole (it parses). Parsing
 * reads the whole dump once per start: a cost that grows with the chain, paid only at a (re)start.
 */
export function promoteLastDump(files: ChainDirectory): 'promoted' | 'none' | 'torn' {
  if (!existsSync(files.dumpFile)) return 'none';
  try {
    JSON.parse(readFileSync(files.dumpFile, 'utf8'));
  } catch {
    renameSync(files.dumpFile, files.tornFile);
    return 'torn';
  }
  renameSync(files.dumpFile, files.stateFile);
  return 'promoted';
}
