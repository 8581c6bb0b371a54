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

/** This node's engine state is not whole yet (it starts, or it lost the engine and recovers): safe to retry. */
export class StateLoadingError extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', "this node is loading the engine's state; retry shortly", { 'retry-after': '1' });
  }
}

/** The engine's node changed under a command: nothing of it was written; safe to retry. */
export class FencedError extends EngineUnavailableError {}

/**
 * A batch could not be made durable (its journal append failed, or applying it failed): nothing of
 * it was acknowledged, the engine rebuilt its state from the journal; safe to retry.
 */
export class NotDurableError extends AppError {
  constructor(cause: unknown) {
    super('SERVICE_UNAVAILABLE', 'the engine could not make this command durable; retry');
    this.cause = cause;
  }
}

