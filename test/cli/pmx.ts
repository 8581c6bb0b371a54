import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import { killPrograms } from '../helpers/program.ts';
import { ADMIN_TOKEN, startTestServer, type ApiServer, type TestServer } from '../helpers/server.ts';
import { BUILT_CLI, ensureBuild } from '../helpers/build.ts';

const exec = promisify(execFile);

export interface PmxResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Runs `pmx` as a child process against a server: the built CLI, as the package's `pmx` bin runs it. Each trader is a config file in `dir` named by
 * `WHO` (default `trader`); ADMIN_TOKEN is the test server's.
 */
export function pmxRunner(server: ApiServer, dir: string) {
  ensureBuild();
  async function pmx(args: string[], env: Record<string, string> = {}): Promise<PmxResult> {
    try {
      const { stdout, stderr } = await exec(process.execPath, [BUILT_CLI, ...args], {
        env: { ...process.env, PMX_URL: server.url, PMX_CONFIG: join(dir, `${env.WHO ?? 'trader'}.json`), ADMIN_TOKEN, ...env },
      });
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failed = error as PmxResult;
      return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
    }
  }
  /** `pmx <args> --json`, which must exit 0; its output parsed. */
  async function json(args: string[], env?: Record<string, string>): Promise<any> {
    const result = await pmx([...args, '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  }
  return { pmx, json };
}

export interface CliFixture extends ReturnType<typeof pmxRunner> {
  /** Set once the file's `before` hooks run. */
  server: TestServer;
  /** The scratch directory of the traders' config files. */
  dir: string;
}

/**
 * One CLI test file's world: a test server and a scratch config directory, opened before its tests
 * (call this before the file's own `before`) and removed after them, with any program still running
 * killed first. `pmx` and `json` can be taken at once; they run against the server once it is up.
 */
export function useCliFixture(dirPrefix: string, serverEnv: Record<string, string> = {}): CliFixture {
  let runner: ReturnType<typeof pmxRunner> | undefined;
  const fixture: CliFixture = {
    server: undefined as unknown as TestServer,
    dir: '',
    pmx: (args, env) => runner!.pmx(args, env),
    json: (args, env) => runner!.json(args, env),
  };
  before(async () => {
    fixture.server = await startTestServer(serverEnv);
    fixture.dir = mkdtempSync(join(tmpdir(), dirPrefix));
    runner = pmxRunner(fixture.server, fixture.dir);
  });
  after(async () => {
    killPrograms();
    await fixture.server?.close();
    if (fixture.dir) rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
