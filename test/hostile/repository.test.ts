/**
 * Fake-pass attacks on repository judging (issue #25 item 4), each a named test judged in the sandbox on the tiny
 * node:test repository (test/support/tiny-repo.ts): the candidate's patch keeps the bug (or breaks things) and
 * tries to be resolved anyway, or tries to reach what it must not. Every one must end not resolved (or, for the
 * probes, must find nothing).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { judgementEnvironment } from '../../src/kinds/repository/repository.js';
import { BASE_FILES, FIXED_MATH, makeTinyRepo, type TinyRepo } from '../support/tiny-repo.js';
import { openRepoJudge, type RepoJudge } from '../support/repo-judge.js';

let tiny: TinyRepo;
let rj: RepoJudge;
let server: Server;
let port = 0;
let connections = 0;

before(async () => {
  tiny = await makeTinyRepo();
  rj = openRepoJudge([tiny.problem]);
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as { port: number }).port;
});
after(async () => {
  server.close();
  await rj.close();
  rmSync(tiny.dir, { recursive: true, force: true });
});

/** The buggy math module with `prelude` run when it loads. */
const BUGGY = BASE_FILES['src/math.js']!;
const withPrelude = (prelude: string, math = BUGGY): string => `${prelude}\n${math}`;
const NOT_RESOLVED = new Set(['wrong_answer', 'invalid_run', 'invalid_patch', 'patch_apply_failed']);

async function attack(files: Readonly<Record<string, string | null>>): Promise<{ status: string; reason: string }> {
  const v = await rj.judgePatch(tiny.problem, tiny.patchOf(files));
  return { status: v.status, reason: v.reason ?? '' };
}

function assertNotResolved(r: { status: string; reason: string }, expected?: string): void {
  assert.ok(NOT_RESOLVED.has(r.status), `resolved or errored: ${r.status} ${r.reason}`);
  if (expected !== undefined) assert.equal(r.status, expected, r.reason);
}

describe('repository fake-pass attacks (sandbox)', () => {
  it('printed_pass_lines: TAP "ok" and ✓ lines on stdout do not pass a test', async () => {
    const r = await attack({ 'src/math.js': withPrelude("console.log('ok 1 - math > multiplies\\n✓ multiplies\\n# pass 3\\n# fail 0');") });
    assertNotResolved(r, 'wrong_answer');
  });

  it('exit_0_in_setup: process.exit(0) when the module loads hides its tests', async () => {
    const r = await attack({ 'src/math.js': withPrelude('process.exit(0);') });
    assertNotResolved(r, 'invalid_run');
  });

  it('skip_only_added: .skip and .only in a test file are a protected edit', async () => {
    const skipped = TEST_WITH_MUL.replace("test.it('multiplies'", "test.it.skip('multiplies'");
    assertNotResolved(await attack({ 'test/math.test.js': skipped }), 'invalid_patch');
    const only = BASE_FILES['test/other.test.js']!.replace("test('keeps'", "test.only('keeps'");
    assertNotResolved(await attack({ 'test/other.test.js': only }), 'invalid_patch');
  });

  it('syntax_error_hides_tests: a module that does not parse leaves its tests missing, never passed', async () => {
    const r = await attack({ 'src/math.js': 'module.exports = {{{ ;\n' });
    assertNotResolved(r);
  });

  it('protected_edits: test files, test configuration, package.json scripts, snapshots', async () => {
    assertNotResolved(await attack({ 'test/math.test.js': '// nothing to test\n' }), 'invalid_patch');
    assertNotResolved(await attack({ '.mocharc.yml': 'spec: []\n' }), 'invalid_patch');
    assertNotResolved(await attack({ 'jest.config.js': 'module.exports = { testMatch: [] };\n' }), 'invalid_patch');
    assertNotResolved(await attack({ 'test/__snapshots__/math.test.js.snap': 'x\n' }), 'invalid_patch');
    const pkg = JSON.parse(BASE_FILES['package.json']!) as Record<string, unknown>;
    assertNotResolved(await attack({ 'package.json': `${JSON.stringify({ ...pkg, scripts: { test: 'true' } })}\n` }), 'invalid_patch');
  });

  it('monkey_patch_assert: a no-op assert.strictEqual makes the canary pass, which is caught', async () => {
    const r = await attack({ 'src/math.js': withPrelude("const a = require('node:assert'); a.strictEqual = () => {}; a.deepStrictEqual = () => {}; a.equal = () => {};") });
    assertNotResolved(r, 'invalid_run');
    assert.match(r.reason, /canary/);
  });

  it('monkey_patch_test: replacing node:test\'s it leaves the tests unregistered, missing', async () => {
    const r = await attack({ 'src/math.js': withPrelude("const t = require('node:test'); t.it = () => {}; t.describe.it = () => {};") });
    assertNotResolved(r);
  });

  it('monkey_patch_it_wrapped: node:test\'s it wrapped to swallow failures wraps the canary registered through it', async () => {
    const r = await attack({ 'src/math.js': withPrelude("const t = require('node:test'); const o = t.it; "
      + 't.it = function (n, fn) { return o.call(this, n, async function (...a) { try { await fn.apply(this, a); } catch (e) {} }); };') });
    assertNotResolved(r, 'invalid_run');
    assert.match(r.reason, /canary/);
  });

  it('forged_report: a report written by the candidate (all ok) with the runner killed', async () => {
    const forger = [
      "const fs = require('fs');",
      "const ok = ['TAP version 13', 'ok 1 - math > adds', 'ok 2 - math > multiplies', 'ok 3 - keeps', '1..3', ''].join('\\n');",
      "for (const p of [process.env.REPORT || '/crucible/out/report']) { try { fs.writeFileSync(p, ok); } catch {} }",
      "try { process.kill(process.ppid, 'SIGKILL'); } catch {}",
      'process.exit(0);',
    ].join('\n');
    const r = await attack({ 'src/math.js': withPrelude(forger) });
    assertNotResolved(r, 'invalid_run');
  });

  it('node_modules_writes: a patch into node_modules is refused; runtime writes never reach the prepared layers', async () => {
    assertNotResolved(await attack({ 'node_modules/tiny-helper/index.js': 'module.exports = 1;\n' }), 'invalid_patch');
    const prepared = await rj.environments.prepare(judgementEnvironment(tiny.problem));
    const digest = (): string => prepared.layers.map((l) => execFileSync('/bin/bash', ['-c', 'cd "$1" && find . -printf "%p %s %T@\\n" | sort | sha256sum', 'd', l], { encoding: 'utf8' })).join();
    const before = digest();
    const planter = withPrelude("const fs = require('fs'); fs.mkdirSync('/testbed/node_modules/planted', { recursive: true }); "
      + "fs.writeFileSync('/testbed/node_modules/planted/index.js', 'x'); fs.writeFileSync('/testbed/src/math.js', 'module.exports = { add: (a, b) => a + b, mul: (a, b) => a * b };');", FIXED_MATH);
    assert.equal((await attack({ 'src/math.js': planter })).status, 'passed');
    assert.equal(digest(), before, 'a judgement wrote into a prepared layer');
    // The next judgement starts pristine: the empty patch still fails its FAIL_TO_PASS test.
    assert.equal((await rj.judgePatch(tiny.problem, '')).status, 'wrong_answer');
  });

  it('future_commits: the box holds one commit of history; the fix\'s commit and its secret are nowhere it can read', async () => {
    // mul is right only when the probe ran (it saw the base commit) and found no trace of the future commit.
    const probe = [
      "const { execSync } = require('child_process');",
      "const sh = (c) => { try { return execSync(c, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }); } catch (e) { return String(e.stdout || ''); } };",
      "const seen = sh('git -C /testbed log --all --format=%s; git -C /testbed rev-list --all --objects; cat /testbed/.git/packed-refs; ls -R /testbed/.git/refs; "
        + `grep -rl ${JSON.stringify(tiny.secret)} /testbed /crucible /box /tmp /usr/local 2>/dev/null');`,
      "const clean = /^base$/m.test(seen) && !seen.includes(" + JSON.stringify(tiny.secret) + ") && !/fix mul/.test(seen);",
    ].join('\n');
    const math = FIXED_MATH.replace('return a * b;', 'return clean ? a * b : a + b;');
    const r = await attack({ 'src/math.js': `${probe}\n${math}` });
    assert.equal(r.status, 'passed', `the probe found the future (or could not look): ${r.reason}`);
  });

  it('network: no host, no loopback service of the host, no name resolves from a judgement', async () => {
    const host = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address ?? '127.0.0.1';
    const before = connections;
    // mul is right only when every connection and lookup failed.
    const probe = [
      "const { execSync } = require('child_process');",
      `const tries = ['${host}', '127.0.0.1'].map((h) => { try { execSync(\`node -e "const s=require('net').connect(${port}, '\${h}'); s.on('connect', () => process.exit(0)); s.on('error', () => process.exit(1)); setTimeout(() => process.exit(1), 2000)"\`); return true; } catch { return false; } });`,
      "let resolved = true; try { execSync(`node -e \"require('dns').lookup('registry.npmjs.org', (e) => process.exit(e ? 1 : 0))\"`); } catch { resolved = false; }",
      'const isolated = !tries.some(Boolean) && !resolved;',
    ].join('\n');
    const math = FIXED_MATH.replace('return a * b;', 'return isolated ? a * b : a + b;');
    const r = await attack({ 'src/math.js': `${probe}\n${math}` });
    assert.equal(r.status, 'passed', `a judgement reached the network: ${r.reason}`);
    assert.equal(connections, before, 'the host\'s server was reached from a box');
  });

  it('symlink_and_traversal: links and paths out of the tree are refused before anything runs', async () => {
    const link = 'diff --git a/lib b/lib\nnew file mode 120000\n--- /dev/null\n+++ b/lib\n@@ -0,0 +1 @@\n+/etc\n\\ No newline at end of file\n';
    assertNotResolved({ status: (await rj.judgePatch(tiny.problem, link)).status, reason: '' }, 'invalid_patch');
    const out = '--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-root\n+evil\n';
    assertNotResolved({ status: (await rj.judgePatch(tiny.problem, out)).status, reason: '' }, 'patch_apply_failed');
  });
});

/**
 * What a candidate's code in the test process can still forge (docs/SECURITY.md, "Repository tasks"): it shares the
 * process with the tests, so a patch written against Crucible can tell the canaries from the tests and tamper with
 * the tests only. These pin that: each passes today, and the day one stops passing, update the documentation.
 */
describe('repository known forgeries (pinned, documented in docs/SECURITY.md)', () => {
  it('known_forgery_assert_by_title: an assert that lets only the canary\'s comparison fail', async () => {
    const r = await attack({ 'src/math.js': withPrelude("const a = require('node:assert'); const o = a.strictEqual; "
      + "a.strictEqual = function (x, y, ...r) { if (typeof x === 'string' && x.startsWith('crucible canary')) return o.call(this, x, y, ...r); };") });
    assert.equal(r.status, 'passed', r.reason);
  });

  it('known_forgery_report_with_canaries: the canaries read from the test files, a report failing exactly them renamed over the reporter\'s', async () => {
    const forger = [
      "const fs = require('fs');",
      "const files = ['/testbed/test/math.test.js', '/testbed/test/other.test.js'];",
      "const canaries = files.flatMap((f) => [...new Set(fs.readFileSync(f, 'utf8').match(/crucible canary [0-9a-f]{32} \\d+( it)?(?=[\"'])/g) || [])]);",
      "const points = ['# Subtest: math', '    # Subtest: adds', '    ok 1 - adds', '    # Subtest: multiplies', '    ok 2 - multiplies', '    1..2', 'ok 1 - math',",
      "  '# Subtest: keeps', 'ok 2 - keeps'];",
      "canaries.forEach((c, i) => points.push('# Subtest: ' + c, 'not ok ' + (i + 3) + ' - ' + c));",
      "const tap = ['TAP version 13', ...points, '1..' + (canaries.length + 2), ''].join('\\n');",
      "try { fs.writeFileSync('/crucible/out/forged', tap); fs.renameSync('/crucible/out/forged', '/crucible/out/report'); } catch (e) {}",
    ].join('\n');
    const r = await attack({ 'src/math.js': withPrelude(forger) });
    assert.equal(r.status, 'passed', r.reason);
  });
});

/** The test file as the test patch leaves it (the attacks edit it). */
const TEST_WITH_MUL = "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul } = require('../src/math');\n\n"
  + "test.describe('math', () => {\n  test.it('adds', () => {\n    assert.strictEqual(add(2, 3), 5);\n  });\n"
  + "  test.it('multiplies', () => {\n    assert.strictEqual(mul(2, 3), 6);\n  });\n});\n";
