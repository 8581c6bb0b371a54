import { randomUUID } from 'node:crypto';
import { buildApp } from './api/app.ts';
import type { AppContext } from './api/context.ts';
import type { TypedApp } from './api/typed-app.ts';
import { createCatalogue } from './catalogue/index.ts';
import { createManualClock, realClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { createIdentity } from './identity/index.ts';
import { openStore } from './store/database.ts';
import { migrateToLatest } from './store/migrate.ts';
import { getOrCreateSetting } from './store/settings-repository.ts';

export interface RunningServer {
  readonly app: TypedApp;
  readonly ctx: AppContext;
  /** http://host:port of the listening server. */
  readonly url: string;
  close(): Promise<void>;
}

/** Opens the store, migrates it, builds every service and the app, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(store.db);
    const clock: Clock = config.clock === 'manual' ? createManualClock() : realClock;
    const operatorUserId = await getOrCreateSetting(store.db, 'operator_user_id', () => randomUUID());
    const identity = await createIdentity({ config, clock, store });
    const catalogue = createCatalogue({ db: store.db, clock, config, operatorUserId });
    const ctx: AppContext = { config, clock, store, operatorUserId, identity, catalogue, ready: false };
    const app = await buildApp(ctx, { users: identity.authenticator });
    await app.listen({ port: config.port, host: config.host });
    ctx.ready = true;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    let closed = false;
    return {
      app,
      ctx,
      url,
      async close() {
        if (closed) return;
        closed = true;
        ctx.ready = false;
        await app.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
