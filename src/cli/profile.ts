import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ApiKeyCredentials } from '../client/index.ts';

/**
 * The trader's saved login: the server, the wallet address, the API key and, only when asked
 * (`login --store-key`), the private key that signs orders. One file per user, mode 0600.
 * PMX_CONFIG overrides its path.
 */
export interface Profile {
  url: string;
  address: string;
  apiKey: ApiKeyCredentials;
  privateKey?: `0x${string}`;
}

export function profilePath(): string {
  return process.env.PMX_CONFIG ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'pmx', 'credentials.json');
}

export function loadProfile(): Profile | undefined {
  try {
    return JSON.parse(readFileSync(profilePath(), 'utf8')) as Profile;
  } catch {
    return undefined;
  }
}

export function saveProfile(profile: Profile): string {
  const path = profilePath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}
