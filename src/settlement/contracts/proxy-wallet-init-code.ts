import { type Address, concat, type Hex, keccak256 } from 'viem';

/** EIP-1167's minimal proxy creation code, around the implementation's address (OpenZeppelin's Clones). */
const MINIMAL_PROXY_PREFIX: Hex = '0x3d602d80600a3d3981f3363d3d373d3d3d363d73';
const MINIMAL_PROXY_SUFFIX: Hex = '0x5af43d82803e903d91602b57fd5bf3';

/**
 * The hash of a proxy wallet's init code: a minimal proxy of the factory's wallet implementation
 * (`ProxyWalletFactory.implementation()`), equal to the factory's `walletInitCodeHash()`.
 */
export function proxyWalletInitCodeHash(implementation: Address): Hex {
  return keccak256(concat([MINIMAL_PROXY_PREFIX, implementation, MINIMAL_PROXY_SUFFIX]));
}
