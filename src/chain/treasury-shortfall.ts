import { BaseError, decodeAbiParameters, getAddress, type Address, type Hex } from 'viem';

/** OpenZeppelin's ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed). */
const INSUFFICIENT_BALANCE = '0xe450d38c';
const ARGUMENTS = [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }] as const;

export interface TreasuryShortfall {
  /** Who paid: the operator's address, whose balance is the treasury. */
  holder: Address;
  balance: bigint;
  needed: bigint;
}

/**
 * Whether a transfer of collateral failed because its sender held too little (the collateral's
 * ERC20InsufficientBalance revert), and by how much: a treasury too short is the operator's to fund,
 * not a chain to try again. Read from the revert's data wherever viem keeps it (a decoded contract
 * call's `raw`, an RPC error's `data`), or from the message where the node printed it.
 */
export function treasuryShortfallOf(error: unknown): TreasuryShortfall | undefined {
  const found: string[] = [];
  if (error instanceof BaseError) {
    error.walk((inner) => {
      for (const value of [(inner as { raw?: unknown }).raw, (inner as { data?: unknown }).data]) if (typeof value === 'string') found.push(value);
      return false;
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  const printed = new RegExp(`${INSUFFICIENT_BALANCE}[:\\s]*(?:0x)?([0-9a-fA-F]{192})`).exec(message);
  if (printed) found.push(`${INSUFFICIENT_BALANCE}${printed[1]}`);
  const data = found.find((hex) => hex.toLowerCase().startsWith(INSUFFICIENT_BALANCE) && hex.length === 2 + 8 + 192);
  if (!data) return undefined;
  const [holder, balance, needed] = decodeAbiParameters(ARGUMENTS, `0x${data.slice(10)}` as Hex);
  return { holder: getAddress(holder), balance, needed };
}
