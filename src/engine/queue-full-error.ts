import { AppError } from '../api/errors.ts';

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
