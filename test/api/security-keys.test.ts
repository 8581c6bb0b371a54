import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decryptSecret } from '../../src/identity/api-key-crypto.ts';
import { GENERATED_KEYS_FILE } from '../../src/identity/server-keys.ts';
import { createScratchDatabase, POSTGRES_URL, postgresReachable } from '../helpers/database.ts';

import { createApiKey, signedRequest, signIn } from '../helpers/auth-client.ts';
import { expectError, post } from '../helpers/http.ts';
import { freePort } from '../helpers/process-server.ts';
import { startTestServer, TEST_CHAIN, type TestServer } from '../helpers/server.ts';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';

const KEY_1 = '11'.repeat(32);
const KEY_2 = '22'.repeat(32);

async function storedCiphertext(server: TestServer, apiKey: string): Promise<string> {
  const row = await server.ctx.store.db.selectFrom('api_keys').select('secret_ciphertext').where('id', '=', apiKey).executeTakeFirstOrThrow();
  return row.secret_ciphertext;
}

describe('API_KEY_ENCRYPTION_KEY rotation', { skip: process.env.DATABASE_URL ? 'the scratch PostgreSQL database is dropped on close; rotation is store-independent' : false }, () => {
  it('reads secrets under API_KEY_ENCRYPTION_KEY_PREVIOUS and re-encrypts them at boot under the new key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmx-rotate-'));
    try {
      let server = await startTestServer({ DATA_DIR: dir, API_KEY_ENCRYPTION_KEY: KEY_1 });
      const { token } = await signIn(server);
      const creds = await createApiKey(server, token);
      await server.close();

      server = await startTestServer({ DATA_DIR: dir, API_KEY_ENCRYPTION_KEY: KEY_2, API_KEY_ENCRYPTION_KEY_PREVIOUS: KEY_1 });
      try {
        assert.equal(decryptSecret(Buffer.from(KEY_2, 'hex'), creds.apiKey, await storedCiphertext(server, creds.apiKey)), creds.secret);
        assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
      } finally {
        await server.close();
      }

      // Once every node has booted with the new key, the old one can go.
      server = await startTestServer({ DATA_DIR: dir, API_KEY_ENCRYPTION_KEY: KEY_2 });
      try {
        assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('API keys per user', () => {
  it('refuses a key beyond API_KEYS_PER_USER with 400, until one is revoked', async () => {
    const server = await startTestServer({ API_KEYS_PER_USER: '2' });
    try {
      const alice = await signIn(server);
      const bob = await signIn(server);
      const first = await createApiKey(server, alice.token);
      await createApiKey(server, alice.token);
      const create = (token: string) => post(server.api('/auth/api-keys'), undefined, { authorization: `Bearer ${token}` });
      expectError(await create(alice.token), 400, 'VALIDATION_FAILED');
      assert.equal((await create(bob.token)).status, 201, 'another user has their own bound');
      assert.equal((await signedRequest(server, first, 'DELETE', `/auth/api-keys/${first.apiKey}`)).status, 204);
      assert.equal((await create(alice.token)).status, 201);
    } finally {
      await server.close();
    }
  });
});

describe('the API-key cap under concurrent creations (issue 38)', () => {
  it('creates no more than API_KEYS_PER_USER keys when 40 creations race', async () => {
    const server = await startTestServer({ API_KEYS_PER_USER: '5' });
    try {
      const alice = await signIn(server);
      const answers = await Promise.all(Array.from({ length: 40 }, () => post(server.api('/auth/api-keys'), undefined, { authorization: `Bearer ${alice.token}` })));
      assert.equal(answers.filter((answer) => answer.status === 201).length, 5);
      for (const answer of answers.filter((a) => a.status !== 201)) expectError(answer, 400, 'VALIDATION_FAILED');
      const rows = await server.ctx.store.db.selectFrom('api_keys').select('id').where('user_id', '=', alice.user.userId).where('revoked_at', 'is', null).execute();
      assert.equal(rows.length, 5);
    } finally {
      await server.close();
    }
  });
});

describe('keys beside the data (issue 38)', { skip: process.env.DATABASE_URL ? 'the embedded store only' : false }, () => {
  it('keeps generated keys on the embedded store in a 0600 file of the data directory, and deletes them once configured keys replaced them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmx-keys-'));
    try {
      let server = await startTestServer({ DATA_DIR: dir });
      let creds: Awaited<ReturnType<typeof createApiKey>>;
      try {
        creds = await createApiKey(server, (await signIn(server)).token);
        const rows = await server.ctx.store.db.selectFrom('settings').select('key').where('key', 'in', ['jwt_secret', 'api_key_encryption_key']).execute();
        assert.deepEqual(rows, [], 'no generated key in the database');
      } finally {
        await server.close();
      }
      const file = join(dir, GENERATED_KEYS_FILE);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8'))).sort(), ['api_key_encryption_key', 'jwt_secret']);

      server = await startTestServer({ DATA_DIR: dir, JWT_SECRET: 'j'.repeat(40), API_KEY_ENCRYPTION_KEY: KEY_1 });
      try {
        assert.equal((await signedRequest(server, creds, 'GET', '/account')).status, 200, 'the key was re-encrypted under the configured one');
        assert.equal(decryptSecret(Buffer.from(KEY_1, 'hex'), creds.apiKey, await storedCiphertext(server, creds.apiKey)), creds.secret);
      } finally {
        await server.close();
      }
      assert.equal(existsSync(file), false, 'the generated keys are deleted');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('keys with DATABASE_URL (issue 38)', { skip: (await postgresReachable(POSTGRES_URL)) ? false : `PostgreSQL unreachable at ${POSTGRES_URL}` }, () => {
  it('refuses to start without JWT_SECRET and API_KEY_ENCRYPTION_KEY, saying how to make them, unless --allow-generated-keys', async () => {
    const database = await createScratchDatabase(POSTGRES_URL);
    try {
      const env = { DATABASE_URL: database.url, ALLOW_GENERATED_KEYS: '' };
      const refused = await bootOutput(env).then(() => 'started', (error: Error) => error.message);
      assert.match(refused, /JWT_SECRET and API_KEY_ENCRYPTION_KEY must be set with DATABASE_URL/);
      assert.match(refused, /openssl rand -hex 32/);
      assert.match(await bootOutput(env, ['--allow-generated-keys']), /are not set: generated keys are kept in the database/);
    } finally {
      await database.drop();
    }
  });
});

/** Boots `pmx serve` with `env`, and returns what it printed once it answers /readyz. */
async function bootOutput(env: Record<string, string>, args: string[] = []): Promise<string> {
  const port = await freePort();
  ensureBuild();
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', ...args], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'memory://', LOG_LEVEL: 'warn', CLOCK: 'real', DATABASE_URL: '', REDIS_URL: '', JWT_SECRET: '', API_KEY_ENCRYPTION_KEY: '', CHAIN: TEST_CHAIN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
      if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return output;
}

describe('key material warning at boot', () => {
  it('names JWT_SECRET and API_KEY_ENCRYPTION_KEY when they are generated, and says nothing when both are set', async () => {
    const generated = await bootOutput({});
    assert.match(generated, /JWT_SECRET and API_KEY_ENCRYPTION_KEY are not set/);
    const configured = await bootOutput({ JWT_SECRET: 'x'.repeat(40), API_KEY_ENCRYPTION_KEY: KEY_1 });
    assert.doesNotMatch(configured, /are not set|is not set/);
  });
});
