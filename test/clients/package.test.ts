/**
 * The Python clients as a package: `pip install ./clients/python` into a fresh virtual environment, offline (no
 * index; Debian's setuptools builds it), then the installed modules, run from another folder, talk to a running
 * `crucible serve`: every answer has the keys its TypedDict (`crucible_types`) says it has, so the typed results
 * describe what the server sends.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { IoProblem } from '../../src/formats/types.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { startServer, type ServerHandle } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logging.js';

const run = promisify(execFile);
const PYTHON = ['/usr/bin/python3.11', '/usr/bin/python3'].find((p) => existsSync(p)) ?? 'python3';
const dir = mkdtempSync(join(tmpdir(), 'crucible-pip-'));
const venv = join(dir, 'venv');
const SUM: IoProblem = { kind: 'io', taskId: 'sum', comparator: { kind: 'tokens' }, tests: [{ input: '1 2\n', output: '3\n' }, { input: '5 5\n', output: '10\n' }] };
let server: ServerHandle;

before(async () => {
  server = await startServer({ port: 0, slots: 2, logLevel: 'silent' }, { problems: [SUM], logger: createLogger('silent') });
  // --system-site-packages: Debian's setuptools builds the package without asking an index for it.
  await run(PYTHON, ['-m', 'venv', '--system-site-packages', venv]);
  await run(join(venv, 'bin', 'pip'), ['install', '--no-index', '--no-build-isolation', '--quiet', join(PROJECT_ROOT, 'clients', 'python')],
    { env: { ...process.env, PIP_FIND_LINKS: '', PIP_NO_CACHE_DIR: '1' }, timeout: 240_000 });
});

after(async () => {
  await server.shutdown(1000);
  rmSync(dir, { recursive: true, force: true });
});

const SCRIPT = `
import importlib.metadata, json, sys, typing
import crucible_client, crucible_types
from crucible_client import CrucibleClient
c = CrucibleClient(sys.argv[1])
def keys(td):
    return sorted(td.__required_keys__), sorted(td.__optional_keys__)
page = c.problems()
verdict = c.judge(code="a, b = map(int, input().split())\\nprint(a - b)\\n", problem="sum")
full = c.judge(code="a, b = map(int, input().split())\\nprint(a + b)\\n", problem="sum", detail="tests")
rewards = c.rewards([{"id": 1, "code": "print(3)", "problem": "sum"}], step=3, batch_id="b-1")
print(json.dumps({
  "version": importlib.metadata.version("crucible-client"),
  "file": crucible_client.__file__,
  "page": page, "verdict": verdict, "full": full, "rewards": rewards,
  "hints": str(typing.get_type_hints(CrucibleClient.judge)["return"]),
  "verdictKeys": keys(crucible_types.Verdict), "itemKeys": keys(crucible_types.RewardItemResult),
  "problemKeys": keys(crucible_types.ProblemInfo),
}))
`;

describe('the Python clients as an installable package', () => {
  test('installs offline with pip, imports from anywhere, and its typed results match the server\'s answers', async () => {
    const { stdout } = await run(join(venv, 'bin', 'python'), ['-c', SCRIPT, server.url], { cwd: dir, timeout: 120_000 });
    const r = JSON.parse(stdout) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(r.version, '0.1.0');
    assert.ok(String(r.file).startsWith(venv), `installed into the venv: ${r.file}`);
    assert.match(r.hints, /Verdict/);
    const [required, optional] = r.verdictKeys as [string[], string[]];
    for (const answer of [r.verdict, r.full]) {
      for (const k of required) assert.ok(k in answer, `Verdict.${k} is in the answer`);
      for (const k of Object.keys(answer)) assert.ok(required.includes(k) || optional.includes(k), `answer key ${k} is typed`);
    }
    assert.equal(r.verdict.status, 'wrong_answer');
    assert.equal(r.verdict.tests, undefined, 'a summary by default');
    assert.equal(r.full.tests.length, 2);
    for (const k of (r.problemKeys as [string[], string[]])[0]) assert.ok(k in r.page.problems[0], k);
    for (const k of (r.itemKeys as [string[], string[]])[0]) assert.ok(k in r.rewards.items[0], k);
  });
});
