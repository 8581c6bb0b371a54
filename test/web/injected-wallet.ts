/**
 * An injected EIP-1193 wallet (window.ethereum) for the browser tests, backed by a viem local
 * account in the test process: the page's provider is a few lines that hand every request to an
 * exposed function. It signs (personal_sign, eth_signTypedData_v4, refusing typed data for another
 * chain than its current one, as MetaMask does), knows only the chains it was asked to add, and
 * forwards every other call to the RPC URL of the chain it is on.
 */
import type { BrowserContext } from 'playwright-core';
import type { PrivateKeyAccount } from 'viem/accounts';

export interface InjectedWallet {
  /** Every request the page made, in order. */
  calls: { method: string; params: unknown[] }[];
  /** The chains added with wallet_addEthereumChain, as asked. */
  added: { chainId: string; rpcUrls: string[] }[];
  /** The chain the wallet is on (hex). */
  chainId(): string;
  /** Moves the wallet to another chain, as its owner could in the wallet's own window. */
  moveTo(chainId: string): void;
}

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

/** The provider the page sees: errors carry their EIP-1193 code, as a wallet's do. */
const PAGE_PROVIDER = `
window.ethereum = {
  async request({ method, params }) {
    const answer = await window.__injectedWallet(method, params ?? []);
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    return answer.result;
  },
  on() {},
  removeListener() {},
};`;

const MAINNET = '0x1';

export async function injectWallet(context: BrowserContext, account: PrivateKeyAccount): Promise<InjectedWallet> {
  const calls: InjectedWallet['calls'] = [];
  const added: InjectedWallet['added'] = [];
  let current = MAINNET;
  const rpcUrlOf = (chainId: string) => added.find((chain) => chain.chainId === chainId)?.rpcUrls[0];

  const handle = async (method: string, params: unknown[]): Promise<Answer> => {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [account.address] };
      case 'eth_chainId':
        return { result: current };
      case 'wallet_switchEthereumChain': {
        const { chainId } = params[0] as { chainId: string };
        if (chainId !== MAINNET && !rpcUrlOf(chainId)) return { error: { code: 4902, message: `Unrecognized chain ID "${chainId}"` } };
        current = chainId;
        return { result: null };
      }
      case 'wallet_addEthereumChain': {
        const chain = params[0] as { chainId: string; rpcUrls: string[] };
        added.push({ chainId: chain.chainId, rpcUrls: chain.rpcUrls });
        current = chain.chainId;
        return { result: null };
      }
      case 'personal_sign':
        return { result: await account.signMessage({ message: { raw: params[0] as `0x${string}` } }) };
      case 'eth_signTypedData_v4':
        return signTypedData(JSON.parse(params[1] as string));
      default:
        return forward(method, params);
    }
  };

  const signTypedData = async (typed: TypedData): Promise<Answer> => {
    if (typed.domain.chainId !== undefined && Number(typed.domain.chainId) !== Number(current)) {
      return { error: { code: 4901, message: `the typed data's chain ${typed.domain.chainId} is not the wallet's chain ${Number(current)}` } };
    }
    const { EIP712Domain: _domain, ...types } = typed.types;
    const message = Object.fromEntries(Object.entries(typed.message).map(([name, value]) => {
      const type = types[typed.primaryType]?.find((field) => field.name === name)?.type ?? '';
      return [name, /^u?int\d*$/.test(type) ? BigInt(value as string) : value];
    }));
    return { result: await account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message } as never) };
  };

  const forward = async (method: string, params: unknown[]): Promise<Answer> => {
    const url = rpcUrlOf(current);
    if (!url) return { error: { code: 4900, message: `the wallet has no RPC URL for chain ${current}` } };
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = (await response.json()) as Answer;
    return body.error ? { error: body.error } : { result: body.result };
  };

  await context.exposeFunction('__injectedWallet', async (method: string, params: unknown[]) => {
    calls.push({ method, params });
    return handle(method, params);
  });
  await context.addInitScript(PAGE_PROVIDER);
  return { calls, added, chainId: () => current, moveTo: (chainId) => { current = chainId; } };
}

interface TypedData {
  domain: { chainId?: number | string } & Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}
