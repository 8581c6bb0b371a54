// A test reporter (node --test-reporter) that prints, once the run ends, each test file's time
// (the sum of its top-level suites' and tests' durations, which run one after another in its
// process, its process's start aside), slowest first: CI prints it to show where a suite's minutes go.
export default async function* testFileTimes(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + (event.data.details.duration_ms ?? 0));
    }
  }
  const slowest = [...byFile].sort((a, b) => b[1] - a[1]);
  yield `${slowest.map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, '')}`).join('\n')}\n`;
}
