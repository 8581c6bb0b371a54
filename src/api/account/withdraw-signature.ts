import { recoverTypedDataAddress, type Address, type Hex } from 'viem';
import type { OrderDomain } from '../../core/orders/eip712-order.ts';
import { WITHDRAW_TYPES } from '../../contract/withdraw-typed-data.ts';

/** What a withdrawal's owner signs (contract/withdraw-typed-data.ts), the amount in base units. */
export interface WithdrawMessage {
  readonly to: Address;
  readonly amountBaseUnits: bigint;
  readonly nonce: bigint;
}

/**
 * The address that signed a withdrawal, or null when the signature recovers to none. Withdrawals
 * are rare, so viem's recover on the event loop is fine here (orders take the worker pool).
 */
export async function withdrawSigner(domain: OrderDomain, message: WithdrawMessage, signature: Hex): Promise<Address | null> {
  try {
    return await recoverTypedDataAddress({
      domain,
      types: WITHDRAW_TYPES,
      primaryType: 'Withdraw',
      // Lowercase: viem refuses a mixed-case address whose checksum is wrong, and the hash does not depend on the case.
      message: { to: message.to.toLowerCase() as Address, amount: message.amountBaseUnits, nonce: message.nonce },
      signature,
    });
  } catch {
    return null;
  }
}
