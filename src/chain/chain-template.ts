/**
 * The state a new chain starts from, made by the build (scripts/build.mjs) as the embedded
 * database's template is: an anvil with every contract of `deployExchangeContracts` deployed,
 * dumped to a file, and the addresses recorded beside it. A new data directory copies both
 * (embedded-chain.ts), so its first boot deploys nothing and its contracts sit at the addresses
 * every build names.
 */
import { rmSync } from 'node:fs';
import { startAnvil } from './anvil-process.ts';
import type { ChainFiles } from './chain-files.ts';
import { writeDeployment } from './chain-files.ts';
import { DEFAULT_EXCHANGE_NAME } from '../config.ts';
import { deployExchangeContracts } from './deployment.ts';

/**
 * The chain id the template is made under; a chain started from it runs under CHAIN_ID (the deployed
 * code does not depend on it: the exchanges' order domain reads the chain id it runs under). Its
 * exchanges verify orders under the default EXCHANGE_NAME; a server named otherwise deploys its own.
 */
const TEMPLATE_CHAIN_ID = 31337;

/** The template's files under the build's output directory (`buildOutput` of src/build-output.ts). */
export function chainTemplateFiles(buildOutput: (name: string) => string): ChainFiles {
  return { stateFile: buildOutput('chain-template.json'), deploymentFile: buildOutput('chain-template-deployment.json') };
}

/** Makes the template: the deployment recorded first, the state last (its time marks the build part as done). */
export async function writeChainTemplate(files: ChainFiles): Promise<void> {
  rmSync(files.stateFile, { force: true });
  const anvil = await startAnvil({ chainId: TEMPLATE_CHAIN_ID, dumpStateFile: files.stateFile });
  try {
    writeDeployment(files.deploymentFile, await deployExchangeContracts(anvil.url, TEMPLATE_CHAIN_ID, DEFAULT_EXCHANGE_NAME));
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  // Anvil writes the state as it stops: only a clean exit leaves the whole of it.
  const exit = await anvil.stop();
  if (exit.code !== 0) throw new Error(`anvil did not stop cleanly while writing the chain template: ${JSON.stringify(exit)}`);
}
