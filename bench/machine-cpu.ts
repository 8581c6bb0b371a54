/**
 * Where a scenario's CPU went on the whole machine, from Linux's /proc (elsewhere: nothing). The
 * server, PostgreSQL and the benchmark's client share the cores, so a rate is bounded by what all
 * three spend per order, not by the server alone: an order whose statements cost PostgreSQL a
 * core's time slows the server's event loop as surely as its own code (the kernel runs the backend
 * it wakes in place of the thread that woke it). Also the machine's steal time: the share of its
 * virtual cores' time the host gave to other guests, which moves rates from run to run.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Cumulative CPU seconds since boot (the machine's, PostgreSQL's processes') or start (this process). */
export interface CpuSample {
  busy: number;
  idle: number;
  steal: number;
  postgres: number;
  client: number;
}

/** What a scenario spent between two samples. */
export interface CpuSpent {
  /** Share of the machine's core time that was busy (user, system, interrupts). */
  busyShare: number;
  /** Share of the machine's core time the host gave to other guests. */
  stealShare: number;
  /** CPU seconds of every process named `postgres` on this machine (0 when the store is PGlite or remote). */
  postgresSeconds: number;
  /** CPU seconds of this process: the HTTP client and its request builders. */
  clientSeconds: number;
}

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

export function sampleCpu(): CpuSample | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // cpu user nice system idle iowait irq softirq steal ...
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = stat.split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const usage = process.cpuUsage();
  return {
    busy: (user + nice + system + irq + softirq) / TICKS_PER_SECOND,
    idle: (idle + iowait) / TICKS_PER_SECOND,
    steal: steal / TICKS_PER_SECOND,
    postgres: postgresTicks() / TICKS_PER_SECOND,
    client: (usage.user + usage.system) / 1e6,
  };
}

export function cpuSpent(before: CpuSample | undefined, after: CpuSample | undefined): CpuSpent | undefined {
  if (!before || !after) return undefined;
  const busy = after.busy - before.busy;
  const steal = after.steal - before.steal;
  const total = busy + (after.idle - before.idle) + steal;
  return {
    busyShare: total > 0 ? busy / total : 0,
    stealShare: total > 0 ? steal / total : 0,
    postgresSeconds: after.postgres - before.postgres,
    clientSeconds: after.client - before.client,
  };
}

/**
 * User and system ticks of every `postgres` process (the postmaster, its backends and workers),
 * with those of the children each has reaped: a backend that exits (a pool closing an idle
 * connection) moves its ticks into the postmaster's, so the sum never goes back.
 */
function postgresTicks(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // it exited meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces, so fields are counted after its ")".
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime and cstime are the 14th to 17th fields of the line, the 12th to 15th after comm.
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks;
}
