import type { DestinationStream } from 'pino';

/**
 * Where the server's log goes: pino's JSON lines for pipes and files (log collectors read them),
 * readable lines for a person at a terminal. Only a TTY standard output gets the readable form;
 * formatting is synchronous and costs a little CPU per line, which a terminal never notices.
 */
export function logDestination(out: NodeJS.WriteStream = process.stdout): DestinationStream | undefined {
  if (!out.isTTY) return undefined;
  const color = out.hasColors?.() ?? false;
  return { write: (line: string) => void out.write(formatLogLine(line, color)) };
}

const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO', color: '32' },
  40: { name: 'WARN', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
};

/** Fields every line has, shown in its own place or not at all. */
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err', 'req', 'res', 'reqId', 'responseTime']);

/**
 * One pino JSON line as `HH:MM:SS.mmm LEVEL message key=value ...`, a request as its method and
 * URL, a response as its status and time, an error with its stack indented below. A line that is
 * not JSON passes through unchanged.
 */
export function formatLogLine(line: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level ?? 'LOG'), color: '0' };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const parts: string[] = [paint('90', time), paint(level.color, level.name.padEnd(5))];
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode !== undefined) parts.push(`${res.statusCode}${typeof entry.responseTime === 'number' ? ` ${entry.responseTime.toFixed(1)} ms` : ''}`);
  if (entry.msg !== undefined && entry.msg !== 'incoming request' && entry.msg !== 'request completed') parts.push(String(entry.msg));
  for (const [key, value] of Object.entries(entry)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    parts.push(paint('90', `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`));
  }
  let out = `${parts.join(' ')}\n`;
  const err = entry.err as { message?: string; stack?: string; type?: string } | undefined;
  if (err) out += `${(err.stack ?? `${err.type ?? 'Error'}: ${err.message ?? ''}`).replace(/^/gm, '    ')}\n`;
  return out;
}
