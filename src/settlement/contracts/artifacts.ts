import { readFileSync } from 'node:fs';
import type { Abi, Hex } from 'viem';
import { buildOutput } from '../../build-output.ts';

/** The contracts the build compiles (contracts/) and ConditionalTokens' published artifact. */
export type ContractName = 'PmxExchange' | 'LocalCollateral' | 'ProxyWalletFactory' | 'ProxyWallet' | 'ConditionalTokens';

export interface ContractArtifact {
  readonly abi: Abi;
  /** Creation code, constructor arguments not included. */
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
}

const loaded = new Map<ContractName, ContractArtifact>();

/** An artifact of dist/contracts (scripts/compile-contracts.mjs), read once per process. */
export function loadArtifact(name: ContractName): ContractArtifact {
  let artifact = loaded.get(name);
  if (!artifact) {
    const path = buildOutput('contracts', `${name}.json`);
    try {
      artifact = JSON.parse(readFileSync(path, 'utf8')) as ContractArtifact;
    } catch (error) {
      throw new Error(`cannot read the ${name} contract at ${path}: build the contracts first (npm run build)`, { cause: error });
    }
    loaded.set(name, artifact);
  }
  return artifact;
}
