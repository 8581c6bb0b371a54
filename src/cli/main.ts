#!/usr/bin/env node
import { inspect } from 'node:util';
import { ConfigError, configuredSecretUrls } from '../config.ts';
import { logRedaction } from '../log-redaction.ts';
import { buildProgram } from './program.ts';

buildProgram().parseAsync().catch((error: unknown) => {
  // What a failure prints goes through the server's log redaction: viem's errors carry the URL they
  // called (in the message and as `url`), and CHAIN_RPC_URL may hold a provider's key, DATABASE_URL
  // or REDIS_URL a password. The error is still printed whole otherwise, stack and causes included.
  const redact = logRedaction(configuredSecretUrls({ argv: process.argv.slice(2) })) ?? ((text: string) => text);
  console.error(redact(error instanceof ConfigError ? `configuration error: ${error.message}` : inspect(error)));
  process.exit(1);
});
