import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { projectPath } from '../../src/build-output.ts';
import { storeIndependent } from '../helpers/store-independent.ts';

const RULES = projectPath('ops/prometheus/alerts.yml');
const RULE_TESTS = ['alerts.test.yml', 'alerts-gas.test.yml'].map((file) => projectPath(`ops/prometheus/${file}`));

interface Rule { alert?: string; expr?: string; labels?: { severity?: string }; annotations?: { summary?: string } }

/** Prometheus's own checker: PROMTOOL (CI unpacks Debian's), or one on PATH; undefined where there is none. */
function promtool(): string | undefined {
  const candidate = process.env.PROMTOOL ?? 'promtool';
  return spawnSync(candidate, ['--version']).status === 0 ? candidate : undefined;
}

/** ops/prometheus/alerts.yml, the alerting rules README.md "Alerts" gives operators (the series they read: test/api/exchange-metrics.test.ts). */
describe('the alert rules', { skip: storeIndependent('the alert rules') }, () => {
  it('name each alert once, say how urgent it is, and say what is wrong', () => {
    const rules: Rule[] = parse(readFileSync(RULES, 'utf8')).groups.flatMap((group: { rules: Rule[] }) => group.rules);
    assert.ok(rules.length >= 10);
    const names = rules.map((rule) => rule.alert);
    assert.equal(new Set(names).size, names.length, 'alert names are unique');
    for (const rule of rules) {
      assert.match(rule.alert ?? '', /^Pmx[A-Za-z]+$/);
      assert.ok(rule.expr, `${rule.alert}: an expression`);
      assert.ok(['page', 'ticket'].includes(rule.labels?.severity ?? ''), `${rule.alert}: severity page or ticket`);
      assert.ok(rule.annotations?.summary, `${rule.alert}: a summary`);
    }
  });

  const tool = promtool();
  it('pass promtool: the rules parse, and fire (and stay quiet) as their unit tests expect', { skip: tool ? false : 'promtool is not installed (.ci/run unpacks it; PROMTOOL names one)' }, () => {
    for (const args of [['check', 'rules', RULES], ['test', 'rules', ...RULE_TESTS]]) {
      const run = spawnSync(tool!, args, { encoding: 'utf8' });
      assert.equal(run.status, 0, `promtool ${args.slice(0, 2).join(' ')}:\n${run.stdout}${run.stderr}`);
    }
  });
});
