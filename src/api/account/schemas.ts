import { Type } from 'typebox';
import type { User } from '../../store/users-repository.ts';
import { Address, Nullable, Uuid } from '../schemas/common.ts';

/** The Account shape of EXTENSIONS.md section 2. */
export const AccountSchema = Type.Object({
  userId: Uuid,
  address: Address,
  proxyWallet: Address,
  displayName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  anonymous: Type.Boolean(),
}, { description: 'The signed-in user' });

export function toAccount(user: User) {
  return {
    userId: user.id,
    address: user.address,
    proxyWallet: user.proxyWallet,
    displayName: user.displayName,
    avatarUrl: user.avatarUrl,
    anonymous: user.anonymous,
  };
}
