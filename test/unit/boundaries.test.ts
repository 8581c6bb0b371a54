import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { projectPath } from '../../src/build-output.ts';

interface Imported { file: string; specifier: string; target: string | undefined; typeOnly: boolean }
interface Rule { allow: string[]; anyPackage?: boolean; ignore?: string[] }
interface Boundaries {
  RULES: Record<string, Rule>;
  specifiersOf(text: string): { specifier: string; typeOnly: boolean }[];
  violations(imports: Imported[], rules?: Record<string, Rule>): (Imported & { why: string })[];
  edgeOpenings(rules?: Record<string, Rule>): string[];
}

const SCRIPT = projectPath('scripts/check-boundaries.mjs');
const boundaries = (await import(SCRIPT)) as Boundaries;

/** An import of `specifier` from `file` (paths relative to src/), resolved as the script does. */
function imported(file: string, specifier: string, typeOnly = false): Imported {
  const dir = file.split('/').slice(0, -1);
  let target: string | undefined;
  if (specifier.startsWith('.')) {
    const parts = [...dir];
    for (const part of specifier.split('/')) {
      if (part === '..') parts.pop();
      else if (part !== '.') parts.push(part);
    }
    target = parts.join('/');
  }
  return { file, specifier, target, typeOnly };
}

describe('module boundaries (scripts/check-boundaries.mjs)', () => {
  it('holds on this repository', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /every import within its module's rule/);
  });

  it('refuses imports a rule does not allow, naming file and import', () => {
    const found = boundaries.violations([
      imported('contract/orders.ts', '../core/money.ts'),
      imported('contract/orders.ts', 'fastify'),
      imported('identity/sign-in.ts', '../api/errors.ts'),
      imported('orders/order-entry.ts', '../api/auth/types.ts', true),
      imported('engine/queue.ts', '../server.ts'),
      imported('client/types.ts', '../api/orders/schemas.ts', true),
      imported('client/index.ts', 'typebox'),
      imported('web/src/App.tsx', '../../store/db.ts'),
      imported('core/money.ts', '../contract/common.ts'),
    ]);
    assert.deepEqual(found.map((v) => `${v.file} -> ${v.specifier}`), [
      'contract/orders.ts -> ../core/money.ts',
      'contract/orders.ts -> fastify',
      'identity/sign-in.ts -> ../api/errors.ts',
      'orders/order-entry.ts -> ../api/auth/types.ts',
      'engine/queue.ts -> ../server.ts',
      'client/types.ts -> ../api/orders/schemas.ts',
      'client/index.ts -> typebox',
      'web/src/App.tsx -> ../../store/db.ts',
      'core/money.ts -> ../contract/common.ts',
    ]);
    assert.match(found[0]!.why, /contract\/ may import only typebox/);
  });

  it('lets each module import what its rule allows', () => {
    assert.deepEqual(boundaries.violations([
      imported('contract/orders.ts', './common.ts'),
      imported('contract/orders.ts', 'typebox'),
      imported('identity/sign-in.ts', '../contract/errors.ts'),
      imported('client/types.ts', 'typebox', true),
      imported('client/types.ts', '../contract/orders.ts', true),
      imported('web/src/App.tsx', '../../client/index.ts'),
      imported('core/money.ts', '../contract/formats.ts'),
      imported('api/app.ts', '../server.ts'),
    ]), []);
  });

  it('reads static, type-only, multi-line, side-effect and dynamic imports, not examples in comments', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      'import {',
      '  c,',
      "} from 'c-package/sub';",
      "export { d } from './d.ts';",
      "export type * from './e.ts';",
      "import './f.css';",
      "const g = await import('./g.ts');",
      "/** import { createClient } from 'pmx-exchange/client'; */",
      " * import { x } from 'not-an-import';",
    ].join('\n');
    assert.deepEqual(boundaries.specifiersOf(text), [
      { specifier: './a.ts', typeOnly: false },
      { specifier: '../b.ts', typeOnly: true },
      { specifier: 'c-package/sub', typeOnly: false },
      { specifier: './d.ts', typeOnly: false },
      { specifier: './e.ts', typeOnly: true },
      { specifier: './f.css', typeOnly: false },
      { specifier: './g.ts', typeOnly: false },
    ]);
  });

  it('keeps the server edge closed to every module with a rule', () => {
    assert.deepEqual(boundaries.edgeOpenings(), []);
    assert.deepEqual(boundaries.edgeOpenings({ orders: { allow: ['api/'], anyPackage: true } }), ['orders/ allows api/']);
  });
});
