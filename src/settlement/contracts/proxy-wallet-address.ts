import { type Address, encodePacked, getContractAddress, type Hex, keccak256 } from 'viem';
import { loadArtifact } from './artifacts.ts';

/**
 * The hash of ProxyWallet's init code: its creation code as compiled, since its constructor takes
 * no arguments. With the factory's address it fixes every owner's wallet address.
 */
export function proxyWalletInitCodeHash(): Hex {
  return keccak256(loadArtifact('ProxyWallet').bytecode);
}

/**
 * The owner's proxy wallet (signatureType 1), deployed or not: CREATE2 from the factory, salted
 * with keccak256 of the owner's address, as ProxyWalletFactory.walletOf computes it on chain.
 */
export function proxyWalletAddress(factory: Address, owner: Address, initCodeHash: Hex = proxyWalletInitCodeHash()): Address {
  const salt = keccak256(encodePacked(['address'], [owner]));
  return getContractAddress({ from: factory, opcode: 'CREATE2', salt, bytecodeHash: initCodeHash });
}
