/**
 * A second node of a benchmark's cluster: started on the leader's database and Redis, and
 * returned once `/readyz` says it follows the leader's journal (src/cluster/README.md).
 */
import { startProcessServer, type ProcessServer } from '../test/helpers/process-server.ts';

/** A node's role as `/readyz` answers it; undefined while it is not ready. */
async function roleOf(node: ProcessServer): Promise<string | undefined> {
  const answer = await fetch(`${node.url}/readyz`).then((r) => (r.ok ? r.json() : undefined), () => undefined);
  return (answer as { role?: string } | undefined)?.role;
}

export async function startFollower(env: Record<string, string>): Promise<ProcessServer> {
  const follower = await startProcessServer(env);
  for (let i = 0; (await roleOf(follower)) !== 'follower'; i++) {
    if (i === 6_000) {
      await follower.stop();
      throw new Error('the second node never became a follower');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return follower;
}
