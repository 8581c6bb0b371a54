import type { LocalAccount } from 'viem/accounts';
import type { Transport } from '../transport.ts';
import type { Account } from '../types.ts';

/** What every section of the client shares: the transport, the wallet and what is learnt about the user. */
export interface ClientContext {
  transport: Transport;
  /** The wallet that signs in and signs orders; optional for API-key-only or read-only use. */
  account: LocalAccount | undefined;
  /** The signed-in Account, once known (sign-in, or GET /account). */
  user: Account | undefined;
}
