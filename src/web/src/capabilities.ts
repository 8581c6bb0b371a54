/**
 * What this server offers beyond the fixed API: the routes that exist only in some configurations,
 * with no flag in GET /exchange. The faucet's route exists only when the server runs with it, the
 * manual clock's (POST /admin/clock) only on a manual clock. The server's OpenAPI document lists
 * exactly the routes it registered, so it answers without a failed request (asking POST
 * /account/faucet itself logged a 400 in the console on every signed-in load). The document is
 * large (about 250 KB), so the answer is kept for the tab's life.
 */
const OPTIONAL_ROUTES = { faucet: '/api/v1/account/faucet', manualClock: '/api/v1/admin/clock' } as const;
type OptionalRoute = keyof typeof OPTIONAL_ROUTES;
const KEPT = 'pmx.optionalRoutes';

let asked: Promise<Record<OptionalRoute, boolean>> | undefined;

async function optionalRoutes(): Promise<Record<OptionalRoute, boolean>> {
  const known = sessionStorage.getItem(KEPT);
  if (known !== null) return JSON.parse(known) as Record<OptionalRoute, boolean>;
  const response = await fetch('/openapi.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`);
  const paths = ((await response.json()) as { paths?: Record<string, unknown> }).paths ?? {};
  const offered = Object.fromEntries(Object.entries(OPTIONAL_ROUTES).map(([name, path]) => [name, paths[path] !== undefined])) as Record<OptionalRoute, boolean>;
  sessionStorage.setItem(KEPT, JSON.stringify(offered));
  return offered;
}

/** Whether the server has this optional route; a document that cannot be read answers no (and is asked again next time). */
export async function offers(route: OptionalRoute): Promise<boolean> {
  asked ??= optionalRoutes();
  try {
    return (await asked)[route];
  } catch {
    asked = undefined;
    return false;
  }
}
