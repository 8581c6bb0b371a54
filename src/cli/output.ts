/** CLI output: aligned tables for people, `--json` for scripts (bigints as strings). */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
}

export function printTable(rows: readonly Record<string, unknown>[], columns: readonly string[]): void {
  if (rows.length === 0) {
    console.log('(none)');
    return;
  }
  const cells = rows.map((row) => columns.map((c) => String(row[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(columns.map((c) => c.toUpperCase())));
  for (const row of cells) console.log(line(row));
}

/** Either form, by the global `--json` flag. */
export function output(json: boolean, value: unknown, table: () => void): void {
  if (json) printJson(value);
  else table();
}

/** A one-line progress bar on stderr for long work (batches); silent when stderr is not a terminal. */
export function progress(label: string): (done: number, total: number) => void {
  return (done, total) => {
    if (!process.stderr.isTTY) return;
    const width = 30;
    const filled = Math.round((done / Math.max(total, 1)) * width);
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done >= total ? '\n' : ''}`);
  };
}

/** The `--help` epilogue of a command: example invocations. */
export const examples = (lines: string[]): string => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
