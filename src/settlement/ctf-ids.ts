import { encodePacked, hexToBigInt, keccak256, numberToHex, type Address, type Hex } from 'viem';

/**
 * ConditionalTokens 1.0.3's ids (CTHelpers.sol), computed exactly as the contract does. A
 * collection id is a point of the alt_bn128 curve y² = x³ + 3 (so collections of different
 * conditions combine by point addition, in any order), packed into 32 bytes: x, with bit 254 set
 * when y is odd. These are the position ids (ERC-1155 token ids) the deployed contract mints.
 */

/** The field of alt_bn128 (CTHelpers.P); P ≡ 3 (mod 4), so a square root is one exponentiation. */
const P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const B = 3n;
const SQRT_EXPONENT = (P + 1n) / 4n;
const Y_IS_ODD_BIT = 1n << 254n;
const ZERO_COLLECTION: Hex = `0x${'0'.repeat(64)}`;

interface Point { x: bigint; y: bigint }
/** The point at infinity, as the ecAdd precompile (EIP-196) encodes it. */
const INFINITY: Point = { x: 0n, y: 0n };

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const mod = (value: bigint) => ((value % P) + P) % P;
const inverse = (value: bigint) => modPow(value, P - 2n);
/** x³ + 3 (mod P). */
const curveRhs = (x: bigint) => (((x * x) % P) * x + B) % P;
/** CTHelpers.sqrt: x^((P+1)/4), a square root of x when x is a square. */
const sqrt = (x: bigint) => modPow(x, SQRT_EXPONENT);
/** The root of `root`'s pair whose parity is `odd`'s, as the contract flips it (P − y). */
const withParity = (root: bigint, odd: boolean) => ((root % 2n === 1n) === odd ? root : P - root);

/** The ecAdd precompile (address 6): affine addition on alt_bn128; it fails on a coordinate ≥ P or a point off the curve. */
function ecAdd(a: Point, b: Point): Point {
  for (const point of [a, b]) {
    const isInfinity = point.x === 0n && point.y === 0n;
    if (point.x >= P || point.y >= P || (!isInfinity && (point.y * point.y) % P !== curveRhs(point.x))) throw new Error('ecadd failed');
  }
  if (a.x === 0n && a.y === 0n) return b;
  if (b.x === 0n && b.y === 0n) return a;
  let slope: bigint;
  if (a.x === b.x) {
    if ((a.y + b.y) % P === 0n) return INFINITY;
    slope = mod(3n * a.x * a.x * inverse(2n * a.y));
  } else {
    slope = mod((b.y - a.y) * inverse(mod(b.x - a.x)));
  }
  const x = mod(slope * slope - a.x - b.x);
  return { x, y: mod(slope * (a.x - x) - a.y) };
}

/** CTHelpers.getConditionId: keccak256(oracle, questionId, outcomeSlotCount). */
export function getConditionId(oracle: Address, questionId: Hex, outcomeSlotCount: bigint): Hex {
  return keccak256(encodePacked(['address', 'bytes32', 'uint256'], [oracle, questionId, outcomeSlotCount]));
}

/**
 * CTHelpers.getCollectionId: the first curve point at or after keccak256(conditionId, indexSet)
 * + 1 (the hash's top bit choosing y's parity), plus the parent collection's point when there is
 * one; throws where the contract reverts (an invalid parent).
 */
export function getCollectionId(parentCollectionId: Hex, conditionId: Hex, indexSet: bigint): Hex {
  const hash = hexToBigInt(keccak256(encodePacked(['bytes32', 'uint256'], [conditionId, indexSet])));
  let x1 = hash;
  let y1: bigint;
  let yy: bigint;
  do {
    x1 = (x1 + 1n) % P;
    yy = curveRhs(x1);
    y1 = sqrt(yy);
  } while ((y1 * y1) % P !== yy);
  let point: Point = { x: x1, y: withParity(y1, hash >> 255n !== 0n) };

  const parent = hexToBigInt(parentCollectionId);
  if (parent !== 0n) {
    const x2 = parent & (Y_IS_ODD_BIT - 1n);
    const parentYy = curveRhs(x2);
    const y2 = withParity(sqrt(parentYy), parent >> 254n !== 0n);
    if ((y2 * y2) % P !== parentYy) throw new Error('invalid parent collection ID');
    point = ecAdd(point, { x: x2, y: y2 });
  }
  const packed = point.y % 2n === 1n ? point.x ^ Y_IS_ODD_BIT : point.x;
  return numberToHex(packed, { size: 32 });
}

/** CTHelpers.getPositionId: the ERC-1155 id of a collection over a collateral token. */
export function getPositionId(collateral: Address, collectionId: Hex): bigint {
  return hexToBigInt(keccak256(encodePacked(['address', 'bytes32'], [collateral, collectionId])));
}

/** The position id of outcome slots `indexSet` of a top-level condition (no parent collection). */
export function topLevelPositionId(collateral: Address, conditionId: Hex, indexSet: bigint): bigint {
  return getPositionId(collateral, getCollectionId(ZERO_COLLECTION, conditionId, indexSet));
}
