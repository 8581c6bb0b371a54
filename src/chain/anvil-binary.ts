import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ConfigError } from '../config.ts';

/**
 * The npm packages that hold anvil's binary, by `platform-arch`: `@foundry-rs/anvil` installs the
 * one of this machine as an optional dependency. Windows is left out: the guard that stops anvil
 * with the server (anvil-process.ts) is a POSIX shell.
 */
const BINARY_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
};

/** The path of anvil's binary for this platform, or a ConfigError that says what to do instead. */
export function anvilBinaryPath(platform: string = process.platform, arch: string = process.arch): string {
  const packageName = BINARY_PACKAGES[`${platform}-${arch}`];
  if (packageName === undefined) throw new ConfigError(`CHAIN=embedded needs anvil, which has no build for ${platform}-${arch} here: set CHAIN=none or CHAIN=rpc`);
  let packageJson: string;
  try {
    packageJson = createRequire(import.meta.url).resolve(`${packageName}/package.json`);
  } catch {
    throw new ConfigError(`CHAIN=embedded needs anvil: ${packageName} is not installed (npm install installs it with @foundry-rs/anvil, unless optional dependencies were left out); or set CHAIN=none or CHAIN=rpc`);
  }
  const binary = join(dirname(packageJson), 'bin', 'anvil');
  if (!existsSync(binary)) throw new ConfigError(`CHAIN=embedded needs anvil: ${binary} is missing (reinstall ${packageName})`);
  return binary;
}
