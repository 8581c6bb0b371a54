import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChainDeployment } from './deployment.ts';

/** A chain's state as anvil dumps it, and the record of the contracts deployed in it. */
export interface ChainFiles {
  readonly stateFile: string;
  readonly deploymentFile: string;
}

/** What the data directory records of its chain: the template's deployment, and the chain id it runs under. */
export interface ChainRecord extends ChainDeployment {
  readonly chainId: number;
}

/** Where a data directory keeps its chain: `chain/` beside the embedded database's files. */
export function chainFilesIn(dataDir: string): ChainFiles {
  return { stateFile: join(dataDir, 'chain', 'state.json'), deploymentFile: join(dataDir, 'chain', 'deployment.json') };
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
export function removeChain(files: ChainFiles): void {
  rmSync(files.stateFile, { force: true });
  rmSync(files.deploymentFile, { force: true });
}
