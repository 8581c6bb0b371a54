import { parseAbi, type Address, type PublicClient } from 'viem';

/** What a deployment may build on instead of deploying its own (USDC and Polymarket's ConditionalTokens on Polygon, say). */
export interface ExistingContracts {
  readonly collateral?: Address;
  readonly conditionalTokens?: Address;
}

/** The collateral's decimals every amount of the exchange assumes (EXTENSIONS.md section 1: base units of 6 decimals). */
const COLLATERAL_DECIMALS = 6;

const PROBES = parseAbi(['function decimals() view returns (uint8)', 'function payoutDenominator(bytes32) view returns (uint256)']);

/**
 * Checks, before anything is deployed, that each existing contract is what the exchange needs: code
 * at the address, a collateral of 6 decimals (an 18-decimal token would make every amount a
 * trillionth of what users see), a ConditionalTokens that answers `payoutDenominator`. Throws an
 * error naming the variable and what was found.
 */
export async function checkExistingContracts(reader: PublicClient, existing: ExistingContracts): Promise<void> {
  if (existing.collateral) {
    const address = existing.collateral;
    await holdsCode(reader, 'COLLATERAL_ADDRESS', address);
    const decimals = await reader.readContract({ address, abi: PROBES, functionName: 'decimals' }).catch(() => {
      throw new Error(`COLLATERAL_ADDRESS ${address} does not answer decimals(): it is not an ERC-20 token`);
    });
    if (decimals !== COLLATERAL_DECIMALS) throw new Error(`COLLATERAL_ADDRESS ${address} has ${decimals} decimals; the exchange's amounts are base units of ${COLLATERAL_DECIMALS} (USDC's)`);
  }
  if (existing.conditionalTokens) {
    const address = existing.conditionalTokens;
    await holdsCode(reader, 'CONDITIONAL_TOKENS_ADDRESS', address);
    await reader.readContract({ address, abi: PROBES, functionName: 'payoutDenominator', args: [`0x${'00'.repeat(32)}`] }).catch(() => {
      throw new Error(`CONDITIONAL_TOKENS_ADDRESS ${address} does not answer payoutDenominator(): it is not a ConditionalTokens contract`);
    });
  }
}

async function holdsCode(reader: PublicClient, name: string, address: Address): Promise<void> {
  if (!(await reader.getCode({ address }))) throw new Error(`${name} ${address} holds no contract on this chain`);
}
