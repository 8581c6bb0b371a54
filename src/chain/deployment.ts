import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * The contracts a chain holds for the exchange, by role. ConditionalTokens is deployed today; the
 * exchange, its neg-risk variant and the collateral join when their contracts land (issue 39, item 1):
 * until then the server keeps the configured addresses for them.
 */
export interface DeployedContracts {
  readonly conditionalTokens: Address;
  readonly exchange?: Address;
  readonly negRiskExchange?: Address;
  readonly collateral?: Address;
}

/** What a deployment leaves behind: who deployed and where each contract is. Recorded beside the chain's state. */
export interface ChainDeployment {
  readonly deployer: Address;
  readonly contracts: DeployedContracts;
}

/**
 * The deployer of the embedded chain's contracts: anvil's first default account (funded at genesis
 * by its well-known mnemonic). A fixed key from a fixed starting nonce puts every contract at the
 * same address in every build, so a template made on one machine names the same addresses as one
 * made on another. Anyone knows this key: it must hold no role that matters on a public chain,
 * and /rpc refuses transactions it signs.
 */
const TEMPLATE_DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/**
 * Deploys every contract of the exchange with `deployerKey` on the chain at `rpcUrl`, in one fixed
 * order, and says where each landed. The one list of deployments: the build's chain template and a
 * data directory started without a template both come from here. The seam for the exchange's own
 * contracts (issue 39, item 1): their deployment goes here, after ConditionalTokens, and their
 * addresses into DeployedContracts.
 */
export async function deployExchangeContracts(rpcUrl: string, chainId: number, deployerKey: Hex = TEMPLATE_DEPLOYER_KEY): Promise<ChainDeployment> {
  const chain = defineChain({ id: chainId, name: 'exchange chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const account = privateKeyToAccount(deployerKey);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  const deploy = async (artifact: Artifact): Promise<Address> => {
    const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${artifact.contractName} reverted (transaction ${hash})`);
    return getAddress(receipt.contractAddress);
  };
  const conditionalTokens = await deploy(npmArtifact('@gnosis.pm/conditional-tokens-contracts/build/contracts/ConditionalTokens.json'));
  return { deployer: account.address, contracts: { conditionalTokens } };
}

interface Artifact {
  readonly contractName: string;
  readonly abi: Abi;
  readonly bytecode: Hex;
}

/** A Truffle-style artifact (abi and creation bytecode) shipped in an npm package, deployed as published. */
function npmArtifact(specifier: string): Artifact {
  return JSON.parse(readFileSync(createRequire(import.meta.url).resolve(specifier), 'utf8')) as Artifact;
}
