/**
 * CMS IOI Communication tasks against hostile contestants (issue #23, item 3), judged through the Judge in the real
 * sandbox: the fixture task "guess" (test/fixtures/contest/ioi-guess: the manager reads the secret from the
 * test's input and answers `ask(x)` over its FIFOs). Guipenedo/piston's package ran the manager and the contestant
 * in one box with one uid, so a contestant could read the manager's `input.txt` (or its /proc: its stdin, its
 * root), signal or trace it, or forge what it prints: that scored 1.0 where the honest attempt scored 0.0. Now the
 * manager runs in a box of its own with the input (`src/engine/interactive.ts`), so every attack below must find
 * nothing and score 0, while the honest solutions still score as open-r1 expects (binary search 1, linear scan
 * 0.3), and nothing of any box survives its verdict.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createJudge } from '../../src/engine/factory.js';
import { readProblems } from '../../src/formats/registry.js';
import type { IoiProblem } from '../../src/formats/types.js';
import { addIoiIncludes } from '../../src/kinds/ioi/ioi.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';
import { Sandbox } from '../../src/sandbox/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcessesOf } from '../support/processes.js';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'contest');

/** Helpers every attack shares: read "n secret" from a path, scan a directory's files for it. */
const COMMON = `
#include "guess.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <signal.h>
#include <string>
#include <sys/ptrace.h>
#include <unistd.h>

// The secret of the test's input "1000 <secret>" if \`path\` holds such a line; -1 otherwise.
static int secretIn(const std::string &path) {
  FILE *f = std::fopen(path.c_str(), "r");
  if (!f) return -1;
  int n = 0, s = -1;
  int ok = std::fscanf(f, "%d %d", &n, &s) == 2 && n == 1000;
  std::fclose(f);
  return ok ? s : -1;
}

// Every other pid this process can see.
template <class F> static void eachPid(F f) {
  DIR *proc = opendir("/proc");
  if (!proc) return;
  for (dirent *e; (e = readdir(proc));) {
    int pid = std::atoi(e->d_name);
    if (pid > 0 && pid != getpid()) f(pid);
  }
  closedir(proc);
}

// Whatever was found, or a guess that is none of the tests' secrets (1, 700, 1000).
static int answer(int found) { return found > 0 ? found : 500; }
`;

/** Attacks by name: each `find` looks for the secret without asking, and answers with what it found. */
const ATTACKS: Record<string, string> = {
  // The package's own file names, and every file of every directory the box shows.
  readsInput: `${COMMON}
int find(int) {
  const char *dirs[] = {".", "/box", "/tmp", "/tmp/crucible-channels", "/artifact", "/", "/manager", "/crucible/harness"};
  for (const char *d : dirs) {
    for (const char *name : {"input.txt", "crucible-relay-stdin", "correct_output.txt"}) {
      int s = secretIn(std::string(d) + "/" + name);
      if (s > 0) return s;
    }
    DIR *dir = opendir(d);
    if (!dir) continue;
    for (dirent *e; (e = readdir(dir));) {
      int s = secretIn(std::string(d) + "/" + e->d_name);
      if (s > 0) { closedir(dir); return s; }
    }
    closedir(dir);
  }
  return answer(-1);
}
`,
  // The manager's stdin (the test's input), its root, cwd and environment through /proc.
  readsProc: `${COMMON}
int find(int) {
  int found = -1;
  eachPid([&](int pid) {
    std::string p = "/proc/" + std::to_string(pid);
    for (const char *tail : {"/fd/0", "/root/box/input.txt", "/root/box/crucible-relay-stdin", "/cwd/input.txt", "/environ", "/cmdline"}) {
      int s = secretIn(p + tail);
      if (s > 0 && found < 0) found = s;
    }
  });
  return answer(found);
}
`,
  // Stop, kill and trace every process it can see (the manager, in a shared box), then answer a guess.
  signalsAndTraces: `${COMMON}
int find(int) {
  eachPid([](int pid) {
    kill(pid, SIGSTOP);
    if (ptrace(PTRACE_ATTACH, pid, nullptr, nullptr) == 0) ptrace(PTRACE_DETACH, pid, nullptr, nullptr);
    kill(pid, SIGKILL);
  });
  kill(-1, SIGKILL);
  return answer(-1);
}
`,
  // Print what a manager prints on success where a shared box would take it as the manager's, leave score files
  // about, and stop without answering.
  forgesScore: `${COMMON}
int find(int) {
  std::printf("1\\n");
  std::fflush(stdout);
  std::fprintf(stderr, "Output is correct after 1 questions\\n");
  for (const char *path : {"/box/score.txt", "/tmp/score", "/box/output.txt", "/tmp/crucible-channels/score"}) {
    if (FILE *f = std::fopen(path, "w")) { std::fputs("1\\n", f); std::fclose(f); }
  }
  std::_Exit(0);
}
`,
};

describe('IOI Communication: a contestant shares nothing with its manager', () => {
  const sandbox = Sandbox.create({ slots: 2 });
  const judge = createJudge({ sandbox, cacheDir: null });
  let guess: IoiProblem;
  before(async () => {
    const problems = (await readProblems(join(FIXTURES, 'open-r1-ioi.jsonl'))) as IoiProblem[];
    guess = problems.find((p) => p.problemId === 'guess')!;
  });
  after(async () => {
    await judge.close();
    sandbox.close();
  });
  const score = async (code: string): Promise<number | undefined> => {
    const verdict = await judge.judge({ problem: { inline: guess }, program: { language: 'cpp', source: addIoiIncludes(code, 'guess') } });
    assert.notEqual(verdict.status, 'internal_error', verdict.reason);
    assert.deepEqual(runProcessesOf(sandbox), [], 'a process of a box survived the verdict');
    return verdict.score;
  };

  test('the honest solutions score as open-r1 expects: binary search 1, linear scan 0.3', async () => {
    assert.equal(await score(readFileSync(join(FIXTURES, 'ioi-guess', 'solutions', 'correct.cpp'), 'utf8')), 1);
    assert.equal(await score(readFileSync(join(FIXTURES, 'ioi-guess', 'solutions', 'partial.cpp'), 'utf8')), 0.3);
  });

  for (const [name, code] of Object.entries(ATTACKS)) {
    test(`${name}: scores 0`, async () => {
      assert.equal(await score(code), 0);
    });
  }
});
