import { getContractAddress, keccak256, type Address, type Hex, encodePacked } from 'viem';

/**
 * The proxy wallet of a sign-in address, derived the way proxy-wallet factories deploy them:
 * CREATE2 from a fixed factory, salted with the owner's address, over a fixed init-code hash.
 * Deterministic, so every node and every restart agrees on it.
 */
const PROXY_FACTORY: Address = '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052';
const PROXY_INIT_CODE_HASH = keccak256(encodePacked(['string'], ['pmx-proxy-wallet-v1']));

/** How the server names a sign-in address's proxy wallet: this derivation, or the deployed factory's (CHAIN=embedded). */
export type ProxyWalletDerivation = (owner: Address) => Address;

export function deriveProxyWallet(owner: Address): Address {
  return proxyWalletAddress(PROXY_FACTORY, owner, PROXY_INIT_CODE_HASH);
}

/**
 * The owner's proxy wallet (signatureType 1), deployed or not: CREATE2 from the factory, salted
 * with keccak256 of the owner's address, as ProxyWalletFactory.walletOf computes it on chain.
 * `initCodeHash`: the deployed factory's (src/settlement/contracts: proxyWalletInitCodeHash), or
 * the fixed one of the simulated settlement layer.
 */
export function proxyWalletAddress(factory: Address, owner: Address, initCodeHash: Hex): Address {
  const salt = keccak256(encodePacked(['address'], [owner]));
  return getContractAddress({ from: factory, opcode: 'CREATE2', salt, bytecodeHash: initCodeHash });
}
