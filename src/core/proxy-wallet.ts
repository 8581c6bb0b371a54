import { getContractAddress, keccak256, type Address, encodePacked } from 'viem';

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
  const salt = keccak256(encodePacked(['address'], [owner]));
  return getContractAddress({ from: PROXY_FACTORY, opcode: 'CREATE2', salt, bytecodeHash: PROXY_INIT_CODE_HASH });
}
