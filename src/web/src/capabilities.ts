/**
 * What this server offers beyond the fixed API. The faucet is the one the app needs: its route
 * exists only when the server runs with it, and GET /exchange carries no flag for it. The server's
 * OpenAPI document lists exactly the routes it registered, so it answers without a failed request
 * (asking POST /account/faucet itself logged a 400 in the console on every signed-in load). The
 * document is large (about 250 KB), so the answer is kept for the tab's life.
 */
const FAUCET_KEY = 'pmx.faucetOffered';
const FAUCET_PATH = '/api/v1/account/faucet';

export async function faucetOffered(): Promise<boolean> {
  const known = sessionStorage.getItem(FAUCET_KEY);
  if (known !== null) return known === 'yes';
  const response = await fetch('/openapi.json', { headers: { accept: 'application/json' } });
  if (!response.ok) return false;
  const document = (await response.json()) as { paths?: Record<string, unknown> };
  const offered = document.paths?.[FAUCET_PATH] !== undefined;
  sessionStorage.setItem(FAUCET_KEY, offered ? 'yes' : 'no');
  return offered;
}
