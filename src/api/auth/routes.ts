import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { registerSignInRoutes } from './sign-in-routes.ts';

/** Every /auth route: sign-in and API keys. */
export function registerAuthRoutes(api: TypedApp, ctx: AppContext): void {
  registerSignInRoutes(api, ctx);
  registerApiKeyRoutes(api, ctx);
}
