import { createServer } from 'node:net';

/**
 * Resolves when `host:port` can be listened on now, else rejects with the listen error
 * (EADDRINUSE, EACCES, EADDRNOTAVAIL). `serve` asks before it opens the store, so a port in use
 * is one line at once rather than a stack trace after the whole boot. Port 0 always can.
 */
export function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** One line for a listen error, naming the setting to change. */
export function listenProblem(host: string, port: number, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use (another exchange?); choose another with PORT or --port`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose another with PORT or --port`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: this machine has no such address; check HOST or --host`;
  return `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}`;
}
