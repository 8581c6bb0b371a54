import { useSyncExternalStore } from 'react';
import type { LocalAccount } from 'viem/accounts';
import { createClient, ExchangeError, type Account, type ApiKeyCredentials, type ClientOptions, type ExchangeClient, type SignedTimestamps, type UserFeed, type UserMessage } from '../../client/index.ts';
import { offers } from './capabilities.ts';
import { readableChain } from './chain.ts';
import { tickSizes } from './market-ticks.ts';
import { noticeMarket, userNotice } from './user-notices.ts';
import { switchWalletToChain, type Eip1193 } from './wallet-chain.ts';

/**
 * Who is signed in, and the SDK client that acts for them. One store for the whole app, read with
 * `useSession()`: components re-render when it changes. `revision` moves on every `/user` message
 * (order, trade and claim updates), so views that depend on the trader's state reload live.
 */
export type WalletKind = 'dev' | 'injected';

export interface Session {
  client: ExchangeClient;
  wallet: { kind: WalletKind; address: `0x${string}` } | undefined;
  user: Account | undefined;
  /** The API key the app signs with (its id), kept in this browser; revoked at sign-out. */
  appKey: string | undefined;
  /** Bumped on every /user feed message. */
  revision: number;
  /** Whether POST /account/faucet exists on this server (capabilities.ts, asked after sign-in); undefined: not known yet. */
  faucet: boolean | undefined;
  /** The last live notices (fills, order updates), newest first. */
  notices: Notice[];
}

const BASE_URL = location.origin;
const DEV_KEY = 'pmx.devWalletKey';
const SAVED = 'pmx.session';

/**
 * What this browser keeps in localStorage while signed in, readable by any script of this origin
 * (the README and the sign-in button say so): the API key with its secret and passphrase, and the
 * session token (24 h). Sign-out revokes the key and ends the session on the server, so what is
 * left behind is dead. The dev wallet's private key stays (it is the wallet, and says "unsafe").
 */
interface Saved {
  kind: WalletKind;
  address: `0x${string}`;
  apiKey: ApiKeyCredentials;
  /** The sign-in session's token, kept to end it at sign-out (reads use the API key). */
  token?: string;
}

const LAST_SIGNED = 'pmx.lastSignedAt';

/**
 * The last HMAC timestamp this browser signed with, in localStorage: every client of every page
 * load and tab signs strictly after it, so the server never sees one of the key's signatures twice
 * (two page loads' clients, each with its own clock estimate, could sign the same balance read in
 * the same millisecond, and the second was refused 401 as a replay).
 */
const signedTimestamps: SignedTimestamps = {
  last: () => {
    const stored = Number(localStorage.getItem(LAST_SIGNED));
    return Number.isSafeInteger(stored) && stored > 0 ? stored : undefined;
  },
  record: (timestampMs) => localStorage.setItem(LAST_SIGNED, String(timestampMs)),
};

/** Every client of the app: this origin's API, the browser's shared signed timestamps. */
const clientOf = (options: Omit<ClientOptions, 'baseUrl' | 'signedTimestamps'> = {}) => createClient({ baseUrl: BASE_URL, signedTimestamps, ...options });

let state: Session = { client: clientOf(), wallet: undefined, user: undefined, appKey: undefined, revision: 0, faucet: undefined, notices: [] };
const listeners = new Set<() => void>();
let feed: UserFeed | undefined;
let noticeId = 0;

function set(patch: Partial<Session>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function useSession(): Session {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, () => state);
}

export const session = (): Session => state;

/** A refusal (an error, announced at once) or anything else (a success, a fill: announced politely). */
export type NoticeKind = 'error' | 'info';

/** A notice's words, its kind, and how many times in a row they were said (`count`). */
export interface Notice {
  id: number;
  text: string;
  kind: NoticeKind;
  count: number;
}

/**
 * Something the trader should see in words for a moment (the server's answers, live fills). The
 * same words as the newest notice replace it, counted (each save said "Account saved" once more,
 * stacked), under a new id: it is announced again and its time starts again.
 */
export function notify(text: string, kind: NoticeKind = 'info'): void {
  const [newest, ...older] = state.notices;
  const repeated = newest?.text === text && newest.kind === kind;
  const notice = { id: ++noticeId, text, kind, count: repeated ? newest.count + 1 : 1 };
  set({ notices: [notice, ...(repeated ? older : state.notices)].slice(0, 4) });
}

export function dismissNotice(id: number): void {
  set({ notices: state.notices.filter((notice) => notice.id !== id) });
}

/** Makes views that show the trader's state reload (after an action of theirs, say). */
export function refresh(): void {
  set({ revision: state.revision + 1 });
}

/** The dev wallet: a key generated in this browser and kept in localStorage. Unsafe for real money. */
async function devAccount(): Promise<LocalAccount> {
  const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
  let key = localStorage.getItem(DEV_KEY) as `0x${string}` | null;
  if (!key) {
    key = generatePrivateKey();
    localStorage.setItem(DEV_KEY, key);
  }
  return privateKeyToAccount(key);
}

export const injectedProvider = (): Eip1193 | undefined => (window as { ethereum?: Eip1193 }).ethereum;

/**
 * An injected EIP-1193 wallet (a browser extension) as the viem account the SDK signs with. When
 * the exchange has a chain to connect to, the wallet is put on it at sign-in (`ask`) and again
 * before each typed-data signature if it moved meanwhile (a reload restores the session without
 * asking the wallet anything).
 */
async function injectedAccount(ask: boolean): Promise<LocalAccount> {
  const provider = injectedProvider();
  if (!provider) throw new Error('no browser wallet found');
  const [{ createWalletClient, custom }, { toAccount }] = await Promise.all([import('viem'), import('viem/accounts')]);
  const accounts = (await provider.request({ method: ask ? 'eth_requestAccounts' : 'eth_accounts' })) as `0x${string}`[];
  const address = accounts[0];
  if (!address) throw new Error('the wallet shared no account');
  const chain = readableChain(await state.client.exchange());
  const putOnChain = async () => chain && (await switchWalletToChain(provider, chain));
  if (ask) await putOnChain();
  const wallet = createWalletClient({ account: address, transport: custom(provider) });
  return toAccount({
    address,
    signMessage: ({ message }) => wallet.signMessage({ message }),
    signTypedData: async (typedData) => {
      await putOnChain();
      return wallet.signTypedData(typedData as Parameters<typeof wallet.signTypedData>[0]);
    },
    signTransaction: () => Promise.reject(new Error('this app never sends transactions')),
  });
}

/** SIWE sign-in, then an API key made behind the scenes; both kept so a reload stays signed in. */
export async function signIn(kind: WalletKind): Promise<void> {
  const account = kind === 'dev' ? await devAccount() : await injectedAccount(true);
  const client = clientOf({ account });
  const { user, token } = await client.auth.signIn();
  // The app's own key of this wallet when this browser still holds a working one, else a new one:
  // sign-ins do not pile keys up against the per-user cap.
  const apiKey = (await reusableKey(account.address)) ?? (await client.auth.createApiKey());
  const saved: Saved = { kind, address: account.address, apiKey, token };
  localStorage.setItem(SAVED, JSON.stringify(saved));
  start(clientOf({ account, credentials: { apiKey } }), saved, user);
}

/** The signed-in account as the server answered it last (after a change of display name, say). */
export function setUser(user: Account): void {
  set({ user });
}

/**
 * A new API key for the signed-in wallet, for the trader's own programs (the app keeps signing with
 * its own). POST /auth/api-keys takes the sign-in session's token, not an API key: the saved one,
 * or, once it has expired (24 h) or ended, a new sign-in with the wallet (an injected wallet asks
 * its owner to sign), whose token is kept in its place.
 */
export async function createApiKey(): Promise<ApiKeyCredentials> {
  const text = localStorage.getItem(SAVED);
  if (!text) throw new Error('sign in first');
  const saved = JSON.parse(text) as Saved;
  if (saved.token) {
    try {
      return await clientOf({ credentials: { token: saved.token } }).auth.createApiKey();
    } catch (error) {
      if (!(error instanceof ExchangeError && error.status === 401)) throw error;
    }
  }
  const account = saved.kind === 'dev' ? await devAccount() : await injectedAccount(false);
  if (account.address !== saved.address) throw new Error('the wallet changed account: sign out and in again');
  const client = clientOf({ account });
  const { token } = await client.auth.signIn();
  localStorage.setItem(SAVED, JSON.stringify({ ...saved, token } satisfies Saved));
  return client.auth.createApiKey();
}

/** The saved key of `address`, if the server still accepts it. */
async function reusableKey(address: `0x${string}`): Promise<ApiKeyCredentials | undefined> {
  const text = localStorage.getItem(SAVED);
  if (!text) return undefined;
  const saved = JSON.parse(text) as Saved;
  if (saved.address !== address) return undefined;
  try {
    await clientOf({ credentials: { apiKey: saved.apiKey } }).account.get();
    return saved.apiKey;
  } catch {
    return undefined;
  }
}

/**
 * Signs out on the server too: the app's API key is revoked and the session ended, so nothing left
 * in this browser works any more; then forgets them. A server that cannot be reached leaves them
 * to expire (the session in 24 h; the key can be revoked from another sign-in).
 */
export async function signOut(): Promise<void> {
  const text = localStorage.getItem(SAVED);
  localStorage.removeItem(SAVED);
  feed?.close();
  feed = undefined;
  set({ client: clientOf(), wallet: undefined, user: undefined, appKey: undefined, faucet: undefined });
  if (!text) return;
  const saved = JSON.parse(text) as Saved;
  await Promise.allSettled([
    clientOf({ credentials: { apiKey: saved.apiKey } }).auth.revokeApiKey(saved.apiKey.apiKey),
    saved.token ? clientOf({ credentials: { token: saved.token } }).auth.logout() : Promise.resolve(),
  ]);
}

/** Forgets a saved session the server no longer accepts (nothing to revoke). */
function forget(): void {
  localStorage.removeItem(SAVED);
  feed?.close();
  feed = undefined;
  set({ client: clientOf(), wallet: undefined, user: undefined, appKey: undefined, faucet: undefined });
}

/** Back to the saved session after a reload; a revoked or unknown key signs out. */
export async function restore(): Promise<void> {
  const text = localStorage.getItem(SAVED);
  if (!text) return;
  const saved = JSON.parse(text) as Saved;
  try {
    const account = saved.kind === 'dev' ? await devAccount() : await injectedAccount(false);
    if (account.address !== saved.address) throw new Error('the wallet changed account');
    const client = clientOf({ account, credentials: { apiKey: saved.apiKey } });
    start(client, saved, await client.account.get());
  } catch {
    forget();
  }
}

function start(client: ExchangeClient, saved: Saved, user: Account): void {
  feed?.close();
  set({ client, wallet: { kind: saved.kind, address: saved.address }, user, appKey: saved.apiKey.apiKey, faucet: undefined });
  void follow(client);
  void probeFaucet();
}

/**
 * The `/user` feed: every message reloads the trader's views, and fills are announced in words,
 * their prices on their market's tick (read once per market, market-ticks.ts).
 */
async function follow(client: ExchangeClient): Promise<void> {
  const current = client.user();
  feed = current;
  for await (const message of current) {
    const market = noticeMarket(message);
    if (market === undefined) announce(message, undefined);
    else void tickSizes(client, [market]).then((ticks) => announce(message, ticks.get(market)));
    refresh();
  }
}

function announce(message: UserMessage, tickSize: string | undefined): void {
  const text = userNotice(message, tickSize, tookPart);
  if (text) notify(text);
}

/** Whether `address` is the signed-in trader's (its wallet, or the sign-in address). */
function tookPart(address: string | null): boolean {
  const mine: (string | null | undefined)[] = [state.user?.proxyWallet, state.user?.address, state.wallet?.address];
  return address !== null && mine.some((a) => a?.toLowerCase() === address.toLowerCase());
}

/** Whether to show the faucet button; an unreachable answer hides it. */
async function probeFaucet(): Promise<void> {
  set({ faucet: await offers('faucet') });
}
