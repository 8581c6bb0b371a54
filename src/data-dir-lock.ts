import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './config.ts';

/**
 * A data directory belongs to one process at a time. Its embedded database (PGlite) and its chain
 * (anvil's state files) are files that two processes would both write: a second server, or a
 * `pmx audit` beside a running one, leaves a PGlite database that no longer opens after the next
 * crash. So whatever opens them takes `DATA_DIR/pmx.lock` first, which names the process and,
 * once it listens, the URL of its server (where `pmx audit` reads the chain of a data directory
 * whose server runs on PostgreSQL).
 *
 * A lock whose process is gone (`kill -9`, a power cut) is taken over. Within one process the lock
 * is counted (the database and the chain both take it), so a process never refuses itself. Two
 * processes starting at the same moment over a lock left by a dead one may both take it over: rare
 * enough (both started by hand within the same milliseconds) to be left to the operator.
 */
export const DATA_DIR_LOCK_FILE = 'pmx.lock';

export interface DataDirHolder {
  pid: number;
  /** The holder's server, once it listens. */
  url: string | null;
}

export interface DataDirLock {
  release(): void;
}

const held = new Map<string, { count: number }>();

/** Whether the data directory holds nothing yet (a lock, left or just taken, is not data). */
export function dataDirEmpty(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).every((name) => name === DATA_DIR_LOCK_FILE);
}

/** Takes the data directory for this process, or throws a ConfigError naming the live process that holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = lockFileOf(dataDir);
  const mine = held.get(file);
  if (mine) {
    mine.count++;
  } else {
    mkdirSync(dataDir, { recursive: true });
    takeFile(file, dataDir);
    held.set(file, { count: 1 });
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const entry = held.get(file);
      if (!entry || --entry.count > 0) return;
      held.delete(file);
      if (readHolder(file)?.pid === process.pid) unlinkSync(file);
    },
  };
}

/** Records the URL of this process's server in the lock of a data directory it holds. */
export function recordServerUrl(dataDir: string, url: string): void {
  const file = lockFileOf(dataDir);
  if (held.has(file)) writeHolder(file, { pid: process.pid, url }, 'w');
}

/** The live process other than this one that holds the data directory, if any. */
export function dataDirHolder(dataDir: string): DataDirHolder | undefined {
  const holder = readHolder(lockFileOf(dataDir));
  return holder && holder.pid !== process.pid && alive(holder.pid) ? holder : undefined;
}

function takeFile(file: string, dataDir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeHolder(file, { pid: process.pid, url: null }, 'wx');
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = dataDirHolder(dataDir);
    if (holder) {
      throw new ConfigError(`the data directory ${dataDir} is in use by process ${holder.pid}${holder.url ? ` (the exchange at ${holder.url})` : ''}: stop it first (pmx audit and pmx migrate need the server stopped on the embedded database), or use another DATA_DIR`);
    }
    // Left by a process that is gone: taken over.
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new ConfigError(`the data directory ${dataDir} was taken by another process while this one started: stop it first, or use another DATA_DIR`);
}

const lockFileOf = (dataDir: string) => join(resolve(dataDir), DATA_DIR_LOCK_FILE);

function writeHolder(file: string, holder: DataDirHolder, flag: 'w' | 'wx'): void {
  writeFileSync(file, `${JSON.stringify(holder)}\n`, { flag, mode: 0o600 });
}

function readHolder(file: string): DataDirHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataDirHolder>;
    return Number.isSafeInteger(parsed.pid) && parsed.pid! > 0 ? { pid: parsed.pid!, url: typeof parsed.url === 'string' ? parsed.url : null } : undefined;
  } catch {
    // Missing, or torn by a crash while it was written: no holder.
    return undefined;
  }
}

/**
 * Whether a process with this id runs Node (one of another user answers EPERM: it runs). After a
 * reboot the id may be another program's: where /proc tells, only a Node process counts.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('node');
  } catch {
    return true;
  }
}
