import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas; let total = 0;
const counts = new Map();
const times = []; let t0 = p.startTime; for (let i = 0; i < p.samples.length; i++) { t0 += dt[i] ?? 0; times.push(t0); }
const end = times.at(-1); const from = end - Number(process.argv[3] ?? 1e12) * 1e6; const to = end - Number(process.argv[4] ?? 0) * 1e6;
for (let i = 0; i < p.samples.length; i++) { if (times[i] < from || times[i] > to) continue; const id = p.samples[i]; counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)); total += dt[i] ?? 0; }
const byFile = new Map();
for (const [id, t] of counts) {
  const n = byId.get(id); const cf = n.callFrame;
  const key = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*node_modules\//, 'nm/').replace(/.*\/work\/main\//, '')}:${cf.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + t);
  let file = cf.url.replace(/.*node_modules\//, 'nm/').replace(/.*\/work\/main\//, '');
  if (file.startsWith('nm/')) file = file.split('/').slice(0, file.startsWith('nm/@') ? 3 : 2).join('/');
  byFile.set(file || cf.functionName, (byFile.get(file || cf.functionName) ?? 0) + t);
}
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, t]) => `${(100 * t / total).toFixed(1).padStart(5)}%  ${n}`).join('\n');
console.log('total', (total / 1e6).toFixed(1), 's');
console.log(top(self, 45)); console.log('--- by file'); console.log(top(byFile, 40));
