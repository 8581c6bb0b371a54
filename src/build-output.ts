import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `npm run build` (and the install's `prepare`) writes that the server loads at run time (the
 * web app, the embedded database template): a path under dist/ of the project, found from this
 * file whether it runs as source (src/) or bundled (dist/server/).
 */
export function buildOutput(...path: string[]): string {
  return projectPath('dist', ...path);
}

/** A path in the project, found from this file as source (src/) or bundled (dist/server/, the tests' bundle). */
export function projectPath(...path: string[]): string {
  return join(PROJECT_DIR, ...path);
}

const PROJECT_DIR = nearestPackageDir(dirname(fileURLToPath(import.meta.url)));

function nearestPackageDir(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
