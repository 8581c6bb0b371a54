import { toHex, type Address, type Hex } from 'viem';
import { callJsonRpc } from './json-rpc.ts';

/** What a funded owner's sign-in address holds of the local chain's native currency at least: 1 ether. */
const OWNER_GAS_WEI = 10n ** 18n;

/**
 * Gas for a wallet's owner on the embedded chain, given with its first credit (the faucet, admin
 * credits) and again once it runs below a tenth. The owner's own transactions are what protect its
 * wallet from a stolen API key (contracts/README.md: revoking an exchange's approval, turning
 * operator trading off, through `ProxyWallet.execute`), and /rpc refuses anvil's own methods, so an
 * owner funded through the exchange could otherwise send none of them on a local chain. Set with
 * anvil's `anvil_setBalance` (no transaction, nothing for the indexer, which follows collateral and
 * outcome tokens only); never lowered.
 */
export async function giveOwnerGas(url: string, owner: Address): Promise<void> {
  const balance = BigInt(await callJsonRpc<Hex>(url, 'eth_getBalance', [owner, 'latest']));
  if (balance >= OWNER_GAS_WEI / 10n) return;
  await callJsonRpc(url, 'anvil_setBalance', [owner, toHex(OWNER_GAS_WEI)]);
}
