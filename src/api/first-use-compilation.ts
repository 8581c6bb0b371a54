import type { FastifyInstance } from 'fastify';

type Compiled = (...args: never[]) => unknown;

/**
 * Validators and response serializers built when a route first needs them, not at boot. Compiling
 * every schema of every route with ajv and fast-json-stringify took about a second of boot, most
 * of the time to /readyz. Once the server listens, what no request has needed yet is compiled in
 * the background, one function per turn of the event loop, so the first orders do not pay for it
 * and requests are never held behind the whole batch.
 */
export class FirstUseCompilation {
  private readonly pending = new Set<() => void>();

  constructor(app: FastifyInstance) {
    app.addHook('onListen', (done) => {
      this.warmUp();
      done();
    });
  }

  /** A function that behaves as `compile()`'s result, compiling it on the first call. */
  wrap<F extends Compiled>(compile: () => F): F {
    let compiled: F | undefined;
    const ensure = () => {
      if (compiled !== undefined) return compiled;
      this.pending.delete(ensure);
      compiled = compile();
      return compiled;
    };
    this.pending.add(ensure);
    // Fastify reads a failed validation's `errors` from the function it called.
    const run = function (this: unknown, ...args: never[]) {
      const target = ensure() as F & { errors?: unknown };
      const result = target.apply(this, args);
      (run as typeof run & { errors?: unknown }).errors = target.errors;
      return result;
    };
    return run as unknown as F;
  }

  private warmUp(): void {
    const next = this.pending.values().next();
    if (next.done) return;
    next.value();
    setImmediate(() => this.warmUp());
  }
}
