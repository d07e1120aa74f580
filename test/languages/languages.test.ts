import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { openExecutor } from '../support/sandbox.js';
import { PROGRAMS } from './programs.js';

const { sandbox, executor, languages } = openExecutor();
after(async () => {
  await executor.close();
  sandbox.close();
});
const limits = runLimits({ cpuMs: 5000 });

describe('every shipped language', () => {
  it('ships at least the thirteen required languages, each with test programs', () => {
    const ids = languages.languages.map((l) => l.id).sort();
    for (const id of ['bash', 'c', 'cpp', 'go', 'java', 'javascript', 'lua', 'perl', 'php', 'python', 'ruby', 'rust', 'typescript']) {
      assert.ok(ids.includes(id), `missing language ${id}`);
      assert.ok(PROGRAMS[id], `no test programs for ${id}`);
    }
  });

  for (const language of languages.languages) {
    const programs = PROGRAMS[language.id];
    if (!programs) continue;
    describe(language.id, () => {
      it('prints hello world', async () => {
        const r = await executor.runProgram(language, programs.hello, '', limits);
        assert.equal(r.status, 'ok', `${r.status}: ${r.reason} ${r.stderr}`);
        assert.equal(r.stdout.trim(), 'hello, world');
        assert.equal(r.exitCode, 0);
      });
      it('echoes a line of stdin', async () => {
        const r = await executor.runProgram(language, programs.echo, 'crucible 42\n', limits);
        assert.equal(r.status, 'ok', `${r.status}: ${r.reason} ${r.stderr}`);
        assert.equal(r.stdout.trim(), 'crucible 42');
      });
      it('reports a syntax error', async () => {
        const r = await executor.runProgram(language, programs.syntaxError, '', limits);
        assert.equal(r.status, language.compile ? 'compile_error' : 'runtime_error', `${r.status}: ${r.reason}`);
        assert.notEqual(r.exitCode, 0);
      });
      it('reports a runtime error', async () => {
        const r = await executor.runProgram(language, programs.runtimeError, '', limits);
        assert.equal(r.status, 'runtime_error', `${r.status}: ${r.reason} ${r.stderr}`);
      });
    });
  }
});

describe('python verdicts do not depend on the run', () => {
  it('iterates a set of strings in the same order in every fresh interpreter (fixed hash seed)', async () => {
    const python = languages.get('python');
    const source = 'print(list({"alpha","beta","gamma","delta","epsilon","zeta","eta","theta","iota","kappa"}))\n';
    const outputs = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await executor.runProgram(python, source, '', limits);
      assert.equal(r.status, 'ok', `${r.status}: ${r.reason} ${r.stderr}`);
      outputs.add(r.stdout);
    }
    assert.equal(outputs.size, 1, [...outputs].join(''));
  });
});

