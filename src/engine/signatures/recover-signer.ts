import { createRequire } from 'node:module';
import secp256k1 from 'secp256k1';
import { keccak256Hex } from '../../core/keccak.ts';

/**
 * Which implementation the `secp256k1` package loaded: its native libsecp256k1 binding (a
 * prebuilt for the platform, or one compiled at install), or, when neither loads, its pure-JS
 * fallback (elliptic), which verifies some 30 times slower. The package decides silently; boot says it.
 */
export function signatureBackend(): 'native libsecp256k1' | 'JS fallback (elliptic)' {
  try {
    createRequire(import.meta.url)('secp256k1/bindings');
    return 'native libsecp256k1';
  } catch {
    return 'JS fallback (elliptic)';
  }
}

/**
 * Recovers the address that signed a 32-byte digest, with the native libsecp256k1 binding
 * (about 30 times faster than a pure-JS recover). The rules are those of the CTF exchange
 * contract (OpenZeppelin ECDSA over the `ecrecover` precompile), so an order accepted here would
 * also be accepted on chain:
 * - the signature is exactly 65 bytes, r ‖ s ‖ v;
 * - v is 27 or 28. The 0/1 form some signers emit is rejected: `ecrecover` answers the zero
 *   address for it, so such an order could never settle on chain;
 * - s is in the lower half of the curve order (s ≤ n/2), which rules out the malleable twin of a
 *   valid signature; r and s are non-zero and below n (libsecp256k1 refuses them otherwise).
 */

type Hex = `0x${string}`;

const SIGNATURE_BYTES = 65;
const HALF_CURVE_ORDER = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');
const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const HEX_DIGEST = /^0x[0-9a-fA-F]{64}$/;

/** The signer's address in lowercase 0x-hex, or null when the signature is not acceptable. */
export function recoverSigner(digest: Hex, signature: Hex): string | null {
  if (!HEX_DIGEST.test(digest) || !HEX_SIGNATURE.test(signature)) return null;
  const bytes = Buffer.from(signature.slice(2), 'hex');
  const v = bytes[SIGNATURE_BYTES - 1]!;
  if (v !== 27 && v !== 28) return null;
  const s = bytes.subarray(32, 64);
  if (Buffer.compare(s, HALF_CURVE_ORDER) > 0) return null;
  let publicKey: Uint8Array;
  try {
    publicKey = secp256k1.ecdsaRecover(bytes.subarray(0, 64), v - 27, Buffer.from(digest.slice(2), 'hex'), false);
  } catch {
    return null; // r or s zero or not below the curve order, or no point recovers
  }
  // The address is the last 20 bytes (40 hex digits) of the keccak of the uncompressed key's x ‖ y.
  return `0x${keccak256Hex(publicKey.subarray(1)).slice(-40)}`;
}

/** True when `signature` over `digest` was made by `expectedSigner` (any letter case). */
export function verifySignature(digest: Hex, signature: Hex, expectedSigner: string): boolean {
  return recoverSigner(digest, signature) === expectedSigner.toLowerCase();
}
