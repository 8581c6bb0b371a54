/**
 * A benchmark's ceiling server (a bare Socket.IO or Fastify server) in its own process, as the
 * exchange runs in its own: `script` prints its port on stdout once it listens.
 */
import { spawn } from 'node:child_process';

export async function startChildServer(script: string, env: Record<string, string> = {}): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}
