import { parentPort } from 'node:worker_threads';
import { verifySignature } from './recover-signer.ts';
import type { VerifyBatch, VerifyResults } from './protocol.ts';

/** A pool worker: verifies each batch it is sent and answers the results in the same order. */
const port = parentPort;
if (port === null) throw new Error('signatures/worker.ts must run as a worker thread');
port.on('message', (batch: VerifyBatch) => {
  const results: VerifyResults = { ids: batch.ids, valid: batch.jobs.map(([digest, signature, signer]) => verifySignature(digest, signature, signer)) };
  port.postMessage(results);
});
