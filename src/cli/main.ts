#!/usr/bin/env node
import { ConfigError } from '../config.ts';
import { buildProgram } from './program.ts';

buildProgram().parseAsync().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
