// Worker threads do not inherit the parent's TypeScript loader on Node 20 (tsx issue #354), so
// the pool starts this plain module, which loads the TypeScript worker through tsx's scoped API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
