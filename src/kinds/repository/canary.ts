/**
 * The canary: a test appended to every test file of the run that must FAIL, titled with a nonce drawn for this
 * judgement. A run whose report says a canary passed (or was skipped), or lists a file's tests without its
 * canary, had its test framework or its report tampered with (`invalid_run`); and since a canary always fails, a
 * genuine run never exits 0, so a run that exits 0 (`process.exit(0)` in candidate code) contradicts its own
 * report. The canary sits in the same module as the file's tests, so a candidate that replaces `expect`, `it` or
 * `assert` for the tests replaces it for the canary too. What it cannot stop: code written against Crucible that
 * tells the canaries from the tests (by their title, or by reading the test files) and tampers with the tests only,
 * or forges a report that fails exactly the canaries (docs/SECURITY.md, "Repository tasks"; pinned by the
 * `known_forgery_*` tests of test/hostile/repository.test.ts).
 *
 * Each reporter format has its own canary source: jest's and mocha's globals, vitest's imported `test` (top-level
 * await; vitest test files are ES modules), node:test's `test` and `it` (a canary each) through a dynamic import (valid in CommonJS and ES
 * modules alike, failing through node:assert so that a replaced assert shows). Plain TAP (`tap`) has none: it
 * names no framework. mocha's canary throws: mocha has no assertion library of its own to check.
 */
import type { LogParser } from '../../formats/types.js';

/** The canary title of test file `index` in a judgement with `nonce`. */
export function canaryTitle(nonce: string, index: number): string {
  return `crucible canary ${nonce} ${index}`;
}

/**
 * The titles of the canary tests of one test file whose canary is titled `title`: node:test's registers one
 * through `test` (titled `title`) and one through `it` (`title` + " it"); the other formats one.
 */
export function canaryTitles(format: LogParser, title: string): string[] {
  return format === 'node-test' ? [title, `${title} it`] : [title];
}

/** Source text appended to a test file (after a newline and `;`), or null when the format has no canary. */
export function canarySource(format: LogParser, title: string): string | null {
  const t = JSON.stringify(title);
  switch (format) {
    case 'jest-json':
      return `\n;test(${t}, () => { expect(${t}).toBe(${JSON.stringify(`${title} (not this)`)}) });\n`;
    case 'vitest-json':
      return `\n;const { test: __crucibleCanaryTest, expect: __crucibleCanaryExpect } = await import('vitest');\n`
        + `__crucibleCanaryTest(${t}, () => { __crucibleCanaryExpect(${t}).toBe(${JSON.stringify(`${title} (not this)`)}) });\n`;
    case 'mocha-json':
      return `\n;it(${t}, function () { throw new Error(${t}) });\n`;
    case 'node-test': {
      // One canary through each of node:test's entry points a test file uses (`test`, `it`), so that wrapping
      // either for the tests wraps a canary too.
      const pairs = canaryTitles(format, title).map((c, i) => `[m.${i === 0 ? 'test' : 'it'}, ${JSON.stringify(c)}]`).join(', ');
      return `\n;Promise.all([import('node:test'), import('node:assert')]).then(([m, a]) => { for (const [f, t] of [${pairs}]) `
        + 'f(t, () => { a.strictEqual(t, `${t} (not this)`) }) });\n';
    }
    case 'tap':
      return null;
  }
}
