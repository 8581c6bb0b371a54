import { ExchangeError } from '../../../client/index.ts';
import { errorText } from '../format.ts';
import { Link } from '../router.tsx';

/** A page that could not load what it shows (`what`: "Market"): a heading, the server's reason, and the way back. */
export function LoadFailed({ what, error }: { what: string; error: unknown }) {
  const missing = error instanceof ExchangeError && error.status === 404;
  return (
    <section className="panel" role="alert" data-testid="load-failed">
      <h1>{missing ? `${what} not found` : `${what} could not be loaded`}</h1>
      <p className="error">{errorText(error)}</p>
      <p><Link to="/">Back to the markets</Link></p>
    </section>
  );
}
