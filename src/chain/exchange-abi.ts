import { getAbiItem, toFunctionSelector, type AbiFunction, type Address, type Hex } from 'viem';
import { ConfigError } from '../config.ts';
import { loadArtifact } from '../settlement/contracts/index.ts';
import { callJsonRpc } from './json-rpc.ts';

/** The exchange functions settlement sends: a deployment whose calls changed since (matchOrders gained the makers' fee rates) lacks them. */
const SENT_FUNCTIONS = ['matchOrders', 'matchOrdersBatch'] as const;

/**
 * Refuses exchanges deployed by a build whose settlement calls differ from this one's: every
 * settlement would revert on chain, failing its trades. A function's 4-byte selector is a constant
 * of the dispatcher in the contract's code, so code without it cannot be called so. `fix` says
 * what the operator does about it.
 */
export async function checkExchangeCalls(url: string, exchanges: readonly { name: string; address: Address }[], fix: string): Promise<void> {
  const abi = loadArtifact('PmxExchange').abi;
  const selectors = SENT_FUNCTIONS.map((name) => ({ name, selector: toFunctionSelector(getAbiItem({ abi, name }) as AbiFunction) }));
  for (const exchange of exchanges) {
    const code = (await callJsonRpc<Hex>(url, 'eth_getCode', [exchange.address, 'latest'], 10_000)).toLowerCase();
    const missing = selectors.filter(({ selector }) => !code.includes(selector.slice(2).toLowerCase()));
    if (missing.length > 0) {
      throw new ConfigError(`${exchange.name} ${exchange.address} has no ${missing.map((m) => m.name).join(' or ')} as this build sends it: it was deployed by an earlier build. ${fix}`);
    }
  }
}
