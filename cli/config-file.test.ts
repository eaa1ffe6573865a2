// The configuration file: keys as option names or flags, typed values, and every refusal naming file and line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfigFile, readConfigFile } from './config-file.ts';

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cf-config-'));
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('configuration file', () => {
  it('reads camelCase names and flags, lists, maps, negated flags and numbers', () => {
    const path = file(
      'stablepay.config.yaml',
      [
        'base-url: http://127.0.0.1:4000/',
        'only: auth,create',
        'skip: [slow]',
        '--no-webhooks: true',
        'control: false',
        'maxFailures: 3',
        'fail-fast: true',
        'runs: "5"',
        'webhook-listen: 127.0.0.1:9999',
        'header:',
        '  X-Gateway-Token: abc',
        'target-env: [A=1, B=2]',
        'faketime: false',
        'fork: {1: "http://127.0.0.1:8545"}',
        'format: [console, junit]',
      ].join('\n'),
    );
    expect(readConfigFile(path)).toEqual({
      baseUrl: 'http://127.0.0.1:4000',
      only: ['auth', 'create'],
      skip: ['slow'],
      webhooks: false,
      control: false,
      maxFailures: 3,
      failFast: true,
      runs: 5,
      webhookListen: '127.0.0.1:9999',
      headers: { 'X-Gateway-Token': 'abc' },
      targetEnv: { A: '1', B: '2' },
      faketime: false,
      forks: { 1: 'http://127.0.0.1:8545' },
      formats: ['console', 'junit'],
    });
  });

  it('reads the gate: require-coverage as a percentage, require as a list', () => {
    expect(readConfigFile(file('stablepay.config.yaml', 'require-coverage: 87.5\nrequire: [browser, customer.settles]\n'))).toEqual({
      requireCoverage: 87.5,
      require: ['browser', 'customer.settles'],
    });
    expect(readConfigFile(file('stablepay.config.json', '{"requireCoverage": 90, "require": "browser"}'))).toEqual({
      requireCoverage: 90,
      require: ['browser'],
    });
  });

  it('refuses with file and line: unknown key, bad value, repeated option, bad header, bad syntax, not a map', () => {
    const cases: [string, string, RegExp][] = [
      ['c.yaml', 'seed: 1\nbase-ur1: x\n', /c\.yaml:2: unknown key "base-ur1"/],
      ['c.yaml', 'seed: 1\n\nruns: -1\n', /c\.yaml:3: --runs: "-1" is out of range/],
      ['c.json', '{\n  "seed": 1,\n  "strict": "yes"\n}', /c\.json:3: strict: expected true or false, got "yes"/],
      ['c.yaml', 'baseUrl: http://a\nbase-url: http://b\n', /c\.yaml:2: "base-url" repeats "baseUrl"/],
      ['c.yaml', 'header: ["no colon"]\n', /c\.yaml:1: --header: expected 'Name: value', got "no colon"/],
      ['c.yaml', 'header:\n  Authorization: Bearer x\n', /c\.yaml:1: --header: Authorization is set from --api-key/],
      ['c.json', '{\n  "seed": 1,\n  "runs": \n}', /c\.json:3: runs: expected a number, got null/],
      ['c.json', '{\n  "seed": 1,\n  "runs: 2\n}\n', /c\.json:\d+: not valid JSON/],
      ['c.yaml', '- a\n- b\n', /c\.yaml:1: expected a map of flag names to values/],
      ['c.yaml', 'config: other.yaml\n', /c\.yaml:1: unknown key "config"/],
    ];
    for (const [name, text, message] of cases) expect(() => readConfigFile(file(name, text)), text).toThrow(message);
  });

  it('reads the implementation profile section, and names the line of a problem in it (exit 2 like any config error)', () => {
    const options = readConfigFile(
      file(
        'p.yaml',
        'seed: 1\nprofile:\n  listItemKey: items\n  apiKeys:\n    expiringBody: { name: "{name}", expiresAt: "{expiresAt}" }\n',
      ),
    );
    expect(options.profile).toEqual({ listItemKey: 'items', apiKeys: { expiringBody: { name: '{name}', expiresAt: '{expiresAt}' } } });
    expect(() => readConfigFile(file('p.yaml', 'seed: 1\nprofile:\n  listItemKey: items\n  webhooks:\n    secretFeild: token\n'))).toThrow(
      /p\.yaml:5: profile\.webhooks\.secretFeild: unknown key "secretFeild"/,
    );
    expect(() => readConfigFile(file('p.yaml', 'profile:\n  apiKeys:\n    whitelistBody: { name: "{name}" }\n'))).toThrow(
      /p\.yaml:3: profile\.apiKeys\.whitelistBody: the body must use \{ipWhitelist\}/,
    );
    // A path: the profile file beside the config file.
    expect(readConfigFile(file('q.yaml', 'profile: implementation.yaml\n')).profile).toMatch(/\/implementation\.yaml$/);
  });

  it('finds the file in the current directory, refuses two, and a missing --config', () => {
    const one = file('stablepay.config.json', '{}');
    const dir = one.slice(0, -'/stablepay.config.json'.length);
    expect(findConfigFile(undefined, dir)).toBe(one);
    expect(findConfigFile(undefined, `${tmpdir()}/nonexistent-dir-r16b`)).toBeNull();
    writeFileSync(join(dir, 'stablepay.config.yaml'), '');
    expect(() => findConfigFile(undefined, dir)).toThrow(/both stablepay\.config\.json and stablepay\.config\.yaml exist/);
    expect(() => findConfigFile('missing.yaml', dir)).toThrow('--config: missing.yaml does not exist');
  });
});
