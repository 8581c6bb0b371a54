import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_TOKEN, type ApiServer } from '../helpers/server.ts';

const exec = promisify(execFile);

export interface PmxResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Runs `pmx` as a child process against a server. Each trader is a config file in `dir` named by
 * `WHO` (default `trader`); ADMIN_TOKEN is the test server's.
 */
export function pmxRunner(server: ApiServer, dir: string) {
  async function pmx(args: string[], env: Record<string, string> = {}): Promise<PmxResult> {
    try {
      const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
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
