import type { RevertReason } from './types.ts';

export type Simulation = { readonly kind: 'ok'; readonly gas: bigint } | { readonly kind: 'reverted'; readonly reason: RevertReason };

export interface BisectSteps<F> {
  /** Throws on a transport error: the caller puts back what was not handled. */
  readonly simulate: (batch: readonly F[]) => Promise<Simulation>;
  readonly send: (batch: readonly F[], gas: bigint) => Promise<void>;
  readonly fail: (fill: F, reason: RevertReason) => Promise<void>;
  readonly maxGas: bigint;
}

/**
 * Settles `batch` in order: a batch that simulates well (within the gas cap) is sent whole; one
 * that reverts, or needs more gas than one transaction may use, is halved until each bad fill
 * stands alone and is failed with its own revert reason. The left half is sent before the right
 * half is simulated, so a simulation on the pending block sees what came before it.
 * A batch of n with k bad fills costs at most about 2k·log2(n) simulations.
 */
export async function bisect<F>(batch: readonly F[], steps: BisectSteps<F>): Promise<void> {
  if (batch.length === 0) return;
  const simulation = await steps.simulate(batch);
  if (simulation.kind === 'ok' && simulation.gas <= steps.maxGas) return steps.send(batch, simulation.gas);
  if (batch.length === 1) {
    const reason = simulation.kind === 'reverted' ? simulation.reason : gasCapReason(simulation.gas, steps.maxGas);
    return steps.fail(batch[0]!, reason);
  }
  const half = Math.ceil(batch.length / 2);
  await bisect(batch.slice(0, half), steps);
  await bisect(batch.slice(half), steps);
}

const gasCapReason = (gas: bigint, maxGas: bigint): RevertReason => ({
  name: 'GasAboveCap',
  args: [gas, maxGas],
  message: `one fill needs ${gas} gas, above the ${maxGas} a transaction may use`,
});
