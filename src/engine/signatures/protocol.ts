/** Messages between the verifier pool and its workers (structured clone, so plain data). */
export type VerifyJob = readonly [digest: `0x${string}`, signature: `0x${string}`, expectedSigner: string];

export interface VerifyBatch {
  readonly ids: readonly number[];
  readonly jobs: readonly VerifyJob[];
}

export interface VerifyResults {
  readonly ids: readonly number[];
  readonly valid: readonly boolean[];
}
