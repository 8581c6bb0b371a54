import { AppError } from '../contract/errors.ts';

/**
 * A bounded queue refused work (EXTENSIONS.md section 9: 503 SERVICE_UNAVAILABLE, safe to retry).
 * Every bounded queue of the engine throws this one error, so callers and the error handler
 * treat them alike.
 */
export class QueueFullError extends AppError {
  constructor(message: string) {
    super('SERVICE_UNAVAILABLE', message);
  }
}

/** This node does not run the matching engine (another node holds it); safe to retry there. */
export class EngineUnavailableError extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'this node does not run the matching engine; send order commands to the node that does');
  }
}

/** The engine's node changed under a command: nothing of it was written; safe to retry. */
export class FencedError extends EngineUnavailableError {}
