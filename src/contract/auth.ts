import { Type } from 'typebox';
import { AccountSchema } from './account.ts';
import { DateTime, Nullable, Uuid } from './common.ts';

/** Sign-In with Ethereum and API keys (EXTENSIONS.md section 2). */

export const NonceSchema = Type.Object({ nonce: Type.String() });

export const LoginBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 4096, description: 'EIP-4361 message text containing a nonce from GET /auth/nonce' }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]*$', maxLength: 1024, description: 'personal_sign signature of the message, hex' }),
});

export const ApiKeySummarySchema = Type.Object({ apiKey: Uuid, createdAt: DateTime, lastUsedAt: Nullable(DateTime) });

export const SignInSessionSchema = Type.Object({ token: Type.String(), expiresAt: DateTime, user: AccountSchema });

/** POST /auth/api-keys: the secret and passphrase are shown only in this answer. */
export const ApiKeyCredentialsSchema = Type.Object({ apiKey: Uuid, secret: Type.String(), passphrase: Type.String() });

export const ApiKeyParams = Type.Object({ apiKey: Uuid });
