/**
 * CHAIN=rpc on a test anvil: the exchange's contracts deployed there by an operator key of its own
 * (not one of anvil's development accounts), that operator's treasury stocked with collateral
 * (credits transfer from it on a chain that is not local), two settlement keys with gas, and the
 * environment a server needs to settle there.
 */
import { type Hex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { deployExchangeContracts, type DeployedContracts } from '../../src/chain/index.ts';
import { DEFAULT_EXCHANGE_NAME } from '../../src/config.ts';
import { loadArtifact } from '../../src/settlement/contracts/index.ts';
import { type Anvil, startAnvil } from './anvil.ts';

/** Collateral in the operator's treasury: enough for every credit a test makes. */
const TREASURY_BASE_UNITS = 10_000_000n * 1_000_000n;

export interface RpcChain {
  readonly anvil: Anvil;
  readonly contracts: DeployedContracts;
  readonly keys: { readonly operator: Hex; readonly settlement: Hex; readonly negRiskSettlement: Hex };
  /** CHAIN=rpc's variables for a server on this chain. */
  readonly env: Record<string, string>;
}

/** Keys with gas on `anvil`: fresh ones, so nothing here leans on the development accounts' roles. */
export async function fundedKeys(anvil: Anvil, count: number): Promise<Hex[]> {
  const keys = Array.from({ length: count }, () => generatePrivateKey());
  for (const key of keys) await anvil.testClient.setBalance({ address: privateKeyToAccount(key).address, value: parseEther('1000') });
  return keys;
}

/** The variables pmx deploy prints, for these contracts. */
export function contractVariables(contracts: DeployedContracts): Record<string, string> {
  return {
    EXCHANGE_ADDRESS: contracts.exchange,
    NEG_RISK_EXCHANGE_ADDRESS: contracts.negRiskExchange,
    COLLATERAL_ADDRESS: contracts.collateral,
    CONDITIONAL_TOKENS_ADDRESS: contracts.conditionalTokens,
  };
}

/** `anvilArgs`: anvil's own options (`--block-time 1` for blocks that come on their own, as on a public chain). */
export async function startRpcChain(anvilArgs: readonly string[] = []): Promise<RpcChain> {
  const anvil = await startAnvil(anvilArgs);
  try {
    const [operator, settlement, negRiskSettlement] = (await fundedKeys(anvil, 3)) as [Hex, Hex, Hex];
    const { contracts } = await deployExchangeContracts(anvil.rpcUrl, anvil.chain.id, DEFAULT_EXCHANGE_NAME, operator);
    const treasurer = anvil.walletClient(privateKeyToAccount(operator));
    const hash = await treasurer.writeContract({ address: contracts.collateral, abi: loadArtifact('LocalCollateral').abi, functionName: 'mint', args: [treasurer.account.address, TREASURY_BASE_UNITS] });
    await anvil.publicClient.waitForTransactionReceipt({ hash });
    const env = { CHAIN: 'rpc', CHAIN_RPC_URL: anvil.rpcUrl, OPERATOR_KEY: operator, SETTLEMENT_KEY: settlement, NEG_RISK_SETTLEMENT_KEY: negRiskSettlement, ...contractVariables(contracts) };
    return { anvil, contracts, keys: { operator, settlement, negRiskSettlement }, env };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
