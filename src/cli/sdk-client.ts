import type { Command } from 'commander';
import { privateKeyToAccount } from 'viem/accounts';
import { createClient, ExchangeError, OrderBuildError, type ExchangeClient } from '../client/index.ts';
import { isPrivateKey } from '../config.ts';
import { hintOf } from './deposit-once.ts';
import { loadProfile } from './profile.ts';

/** The global options every SDK-backed command reads (`--url`, `--json`, `--admin-token`). */
export interface GlobalOptions {
  url?: string;
  json?: boolean;
  adminToken?: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

/** Exit codes: 1 the server refused the call, 2 refused locally (usage, order rules, not logged in). */
export const EXIT_API_ERROR = 1;
export const EXIT_LOCAL_ERROR = 2;

export class CliError extends Error {}

export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** An address option (0x and 40 hex digits), or a local usage error (exit 2) naming the flag. */
export function address(flag: string, value: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new CliError(`${flag} must be an address (0x and 40 hex digits), got "${value}"`);
  return value as `0x${string}`;
}

/** A wallet's private key (config.ts `isPrivateKey`, as the server checks its keys), or a local usage error (exit 2) naming where it came from. */
export function privateKey(from: string, value: string): `0x${string}` {
  if (!isPrivateKey(value)) throw new CliError(`${from} must be a private key: 0x and 64 hex digits (32 bytes)`);
  return value;
}

/** A whole number option, or a local usage error (exit 2) naming the flag. */
export function count(flag: string, value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new CliError(`${flag} must be a whole number, got "${value}"`);
  return Number(value);
}

/** A client from the flags, the environment and the saved login, in that order of precedence. */
export function clientFor(command: Command, need: 'public' | 'trader' | 'admin' = 'public'): ExchangeClient {
  const profile = loadProfile();
  const { baseUrl, adminToken } = exchangeOf(command, profile);
  if (need === 'trader' && !profile) throw new CliError('not logged in: run `pmx login` first');
  // A saved key signs only for the exchange it was made on.
  if (need === 'trader' && profile!.url !== baseUrl) throw new CliError(`logged in to ${profile!.url}, not ${baseUrl}: run \`pmx login\` against it first`);
  if (need === 'admin' && !adminToken) throw new CliError('admin commands need --admin-token or ADMIN_TOKEN');
  return createClient({
    baseUrl,
    credentials: { ...(profile && profile.url === baseUrl ? { apiKey: profile.apiKey } : {}), ...(adminToken ? { adminToken } : {}) },
    ...(profile?.privateKey && profile.url === baseUrl ? { account: privateKeyToAccount(profile.privateKey) } : {}),
  });
}

/** The exchange's URL and the operator token from the flags, the environment and the saved login. */
export function exchangeOf(command: Command, profile = loadProfile()): { baseUrl: string; adminToken: string | undefined } {
  const options = globals(command);
  return { baseUrl: options.url ?? process.env.PMX_URL ?? profile?.url ?? DEFAULT_URL, adminToken: options.adminToken ?? process.env.ADMIN_TOKEN };
}

/** Runs a command body and turns failures into a message and an exit code. */
export function run<A extends unknown[]>(body: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      await body(...args);
    } catch (error) {
      if (error instanceof ExchangeError) {
        console.error(`error ${error.status} ${error.code}: ${error.message}`);
        process.exitCode = error.status === 0 ? EXIT_LOCAL_ERROR : EXIT_API_ERROR;
      } else if (error instanceof OrderBuildError || error instanceof CliError) {
        console.error(`error${'code' in error ? ` ${error.code}` : ''}: ${error.message}`);
        process.exitCode = EXIT_LOCAL_ERROR;
      } else if (unreachable(error)) {
        console.error(`error: the exchange could not be reached (${unreachable(error)}): is it running, and are --url or PMX_URL right?`);
        process.exitCode = EXIT_API_ERROR;
      } else throw error;
      const hint = hintOf(error);
      if (hint) console.error(hint);
    }
  };
}

/** Why fetch could not reach the server (undici's "fetch failed", its cause the socket's error), or undefined for any other error. */
function unreachable(error: unknown): string | undefined {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return undefined;
  const cause = error.cause as { message?: string } | undefined;
  return cause?.message ?? 'no connection';
}
