import { BaseError, createPublicClient, formatEther, http, InsufficientFundsError, type Address } from 'viem';
import { ConfigError } from '../config.ts';

/**
 * OPERATOR_KEY pays the deployment's gas. A key that holds nothing is refused before anything is
 * sent, and one that runs out on the way is said in one line naming the address and what it holds:
 * viem's error repeats the contract's bytecode and its request, hundreds of lines of hex.
 */
export async function refuseUnfundedDeployer(rpcUrl: string, chainId: number, deployer: Address): Promise<void> {
  const balance = await balanceOf(rpcUrl, deployer);
  if (balance === 0n) throw unfunded(deployer, balance, chainId, 'nothing was sent');
}

/** The error a deployment that ran out of gas money is said as, or `error` itself for any other failure. */
export async function deployerOutOfFunds(error: unknown, rpcUrl: string, chainId: number, deployer: Address): Promise<unknown> {
  if (!(error instanceof BaseError) || !error.walk((cause) => cause instanceof InsufficientFundsError)) return error;
  // Contracts mined before it ran out stay on the chain unused: a run always deploys a new set.
  return unfunded(deployer, await balanceOf(rpcUrl, deployer), chainId, 'any contract this run deployed before it ran out is left unused');
}

const balanceOf = (rpcUrl: string, address: Address) => createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) }).getBalance({ address });

function unfunded(deployer: Address, balance: bigint, chainId: number, sent: string): ConfigError {
  return new ConfigError(`OPERATOR_KEY's address ${deployer} holds ${formatEther(balance)} of chain ${chainId}'s native currency, too little for the deployment's gas (${sent}): fund that address and run pmx deploy again`);
}
