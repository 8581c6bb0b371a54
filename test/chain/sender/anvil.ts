// The sender's anvil: a test anvil (test/helpers/anvil.ts) with two funded keys of its own, the
// operator's and an outsider's, so no test shares a nonce with another user of the default accounts.
import { createWalletClient, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startAnvil as startTestAnvil } from '../../helpers/anvil.ts';

export type Anvil = Awaited<ReturnType<typeof startAnvil>>;

/** Starts anvil with `args` (`--no-mining`, `--block-time 1`, ...); resolves once it answers RPC. */
export async function startAnvil(args: string[] = []) {
  const anvil = await startTestAnvil(args);
  const { chain, testClient } = anvil;
  const transport = http(anvil.rpcUrl, { batch: { wait: 0 } });
  const operator = privateKeyToAccount(generatePrivateKey());
  const outsider = privateKeyToAccount(generatePrivateKey());
  for (const account of [operator, outsider]) await testClient.setBalance({ address: account.address, value: parseEther('1000') });
  return {
    url: anvil.rpcUrl,
    chain,
    publicClient: anvil.publicClient,
    testClient,
    operator,
    operatorWallet: createWalletClient({ chain, transport, account: operator }),
    outsider,
    outsiderWallet: createWalletClient({ chain, transport, account: outsider }),
    stop: () => anvil.stop(),
  };
}
