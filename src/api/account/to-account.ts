import type { User } from '../../store/users-repository.ts';

/** A user row as the Account of EXTENSIONS.md section 2 (`AccountSchema`). */
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
