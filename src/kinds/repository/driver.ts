/**
 * The judgement's driver: the bash program the repository mode plans (pure: it only writes text). It runs in the
 * box over the prepared repository (a copy-on-write overlay at `REPO_DIR`), as the first process of the run,
 * BEFORE any code of the candidate's loads, and follows SWE-bench's order:
 *
 * 1. apply the candidate patch with the ladder `git apply`, `git apply --3way`, `git apply --reject` (which fails
 *    when any hunk is rejected), `patch --batch --fuzz=5 -p1` (given `toUnified`'s rewrite of the patch, never the
 *    model's text), resetting the tree between steps; git runs with no system or global configuration and no hooks,
 *    and refuses paths that leave the tree or go through a symbolic link (GNU patch is only given plain paths that
 *    the policy checked, over a tree without links the patch made);
 * 2. check that `package.json`'s protected keys did not change (harness/repository/package-keys.cjs);
 * 3. reset every test file (the instance's, and every file the test patch touches) to the base commit, or delete
 *    it when the base has none, then apply the test patch;
 * 4. append the canary to each test file (`canary.ts`);
 * 5. say `run <nonce>` and exec the test command (its output follows on stdout and stderr).
 *
 * Its stdout before the test command starts is the trusted account of steps 1-4: every line is written before
 * any process of the candidate's exists, so nothing the candidate does can come before them or change them. Lines
 * are `crucible: <word> <text>` (`PREFIX_WORDS`); text that could hold newlines is base64. Everything the tools
 * print goes to files under /box/log, not stdout.
 */
import { WARM_TMPDIR } from './environment-spec.js';
import { PROTECTED_PACKAGE_KEYS } from './policy.js';

/** Where the prepared repository is in the box (SWE-bench's images use the same path). */
export const REPO_DIR = '/testbed';
/** Where the test command's reporter writes (the run's outbox, read once the run is over). */
export const REPORT_PATH = '/crucible/out/report';
/** The outbox file name of the report. */
export const REPORT_FILE = 'report';

/** The ladder's steps, in order (what `applied` names). */
export const LADDER = ['git_apply', 'git_apply_3way', 'git_apply_reject', 'patch_fuzz'] as const;
export type LadderStep = (typeof LADDER)[number] | 'empty';

/** What the driver needs (see the module comment). */
export interface DriverInput {
  readonly nonce: string;
  /** The candidate's patch as given ('' for the empty patch). */
  readonly patch: string;
  /** `toUnified(parsed patch)`, or null when GNU patch cannot carry it (the fuzz step is skipped). */
  readonly unified: string | null;
  readonly testPatch: string;
  /** Files reset to the base commit before the test patch (the instance's test files and the test patch's). */
  readonly resetFiles: readonly string[];
  /** Test files to append a canary to, with the canary's source. */
  readonly canaries: readonly { readonly file: string; readonly source: string }[];
  /** package.json files the patch touches, whose protected keys are checked. */
  readonly packageJsons: readonly string[];
  /** The test command with `{report}` and `{test_files}` substituted. */
  readonly testCommand: string;
}

/** A bash single-quoted word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Bash that writes `content` to `path` through base64 (no text of `content` is ever read as bash). */
function writeFile(path: string, content: string): string {
  const encoded = Buffer.from(content, 'utf8').toString('base64').replace(/(.{76})/g, '$1\n');
  return `base64 -d > ${shellQuote(path)} <<'CRUCIBLE_B64'\n${encoded}\nCRUCIBLE_B64\n`;
}

/**
 * What a session's `run_tests` runs: the test command on the instance's test files as the session's tree has them,
 * its report written to the box's /tmp and, for reporters that write nothing else (TAP to a file), shown after.
 */
export function sessionTestCommand(template: string, testFiles: readonly string[], logParser: string): string {
  const report = '/tmp/crucible-session-report';
  const run = `rm -f ${report}; /bin/bash -c ${shellQuote(testCommand(template, testFiles, report))}`;
  return logParser === 'tap' || logParser === 'node-test' ? `${run}; s=$?; cat ${report} 2>/dev/null; exit $s` : run;
}

/** The test command with `{report}` and `{test_files}` (shell-quoted, space-separated) substituted. */
export function testCommand(template: string, testFiles: readonly string[], reportPath = REPORT_PATH): string {
  return template.replaceAll('{report}', shellQuote(reportPath)).replaceAll('{test_files}', testFiles.map(shellQuote).join(' '));
}

/** The driver for one judgement (see the module comment). */
export function driverScript(input: DriverInput): string {
  const out: string[] = [
    '#!/bin/bash',
    '# Crucible repository judgement driver (src/kinds/repository/driver.ts). Trusted: runs before any candidate code.',
    'set -u',
    `say() { printf 'crucible: %s\\n' "$*"; }`,
    `log64() { head -c 4000 "$1" 2>/dev/null | base64 -w0; }`,
    'export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 GIT_OPTIONAL_LOCKS=0',
    'g() { git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.attributesFile=/dev/null -c apply.whitespace=nowarn "$@"; }',
    `mkdir -p /box/in /box/log && cd ${REPO_DIR} || { say setup_failed "$(printf 'cannot enter ${REPO_DIR}' | base64 -w0)"; exit 3; }`,
    writeFile('/box/in/model.patch', input.patch),
    writeFile('/box/in/test.patch', input.testPatch),
    ...(input.unified === null ? [] : [writeFile('/box/in/model.unified', input.unified)]),
    'reset_tree() { g reset -q --hard HEAD >/dev/null 2>&1; g clean -q -fd -e node_modules >/dev/null 2>&1; }',
    'applied=""',
    'if [ ! -s /box/in/model.patch ]; then applied=empty',
    'elif g apply --verbose /box/in/model.patch >/box/log/1 2>&1; then applied=git_apply',
    'else reset_tree',
    '  if g apply --verbose --3way /box/in/model.patch >/box/log/2 2>&1; then applied=git_apply_3way',
    '  else reset_tree',
    '    if g apply --verbose --reject /box/in/model.patch >/box/log/3 2>&1; then applied=git_apply_reject',
    '    else reset_tree',
    input.unified === null ? '      :'
      : '      if patch --batch --fuzz=5 -p1 --no-backup-if-mismatch --reject-file=- -i /box/in/model.unified >/box/log/4 2>&1; then applied=patch_fuzz; else reset_tree; fi',
    '    fi',
    '  fi',
    'fi',
    'if [ -z "$applied" ]; then say apply_failed "$(log64 /box/log/1)"; exit 0; fi',
    'say applied "$applied"',
  ];
  if (input.packageJsons.length > 0) {
    const pairs: string[] = [];
    input.packageJsons.forEach((file, i) => {
      out.push(`g show HEAD:${shellQuote(file)} > /box/in/base-package${i}.json 2>/dev/null || rm -f /box/in/base-package${i}.json`);
      pairs.push(`/box/in/base-package${i}.json`, file);
    });
    out.push(`node /crucible/harness/repository/package-keys.cjs ${shellQuote(PROTECTED_PACKAGE_KEYS.join(','))} `
      + `${pairs.map(shellQuote).join(' ')} >/box/log/keys 2>&1`,
    'case $? in 0) ;; 1) say invalid_patch "$(log64 /box/log/keys)"; exit 0 ;; *) say setup_failed "$(log64 /box/log/keys)"; exit 3 ;; esac');
  }
  for (const file of input.resetFiles) {
    const f = shellQuote(file);
    out.push(`if g cat-file -e HEAD:${f} 2>/dev/null; then g checkout -q HEAD -- ${f} 2>>/box/log/reset; else rm -rf -- ${f}; fi`);
  }
  out.push('if ! g apply --verbose /box/in/test.patch >/box/log/test 2>&1; then say test_patch_failed "$(log64 /box/log/test)"; exit 0; fi');
  input.canaries.forEach(({ file, source }, i) => {
    out.push(writeFile(`/box/in/canary${i}`, source));
    out.push(`if [ -f ${shellQuote(file)} ]; then cat /box/in/canary${i} >> ${shellQuote(file)}; fi`);
  });
  // The tests' temporary files (a runner's transform cache) where the environment's warm layer has them.
  out.push(`export TMPDIR=${shellQuote(WARM_TMPDIR)}; mkdir -p "$TMPDIR"`);
  out.push(`say run ${input.nonce}`);
  out.push(`exec /bin/bash -c ${shellQuote(input.testCommand)}`);
  return `${out.join('\n')}\n`;
}

/** A driver that only says what was decided before anything ran (the patch was refused or unreadable). */
export function decidedScript(word: 'invalid_patch' | 'malformed_patch', reason: string): string {
  return `printf 'crucible: %s %s\\n' ${word} ${Buffer.from(reason, 'utf8').toString('base64')}\n`;
}

/** What the driver's trusted prefix says (see the module comment). */
export type DriverPrefix =
  | { readonly kind: 'run'; readonly applied: LadderStep; readonly nonce: string }
  | { readonly kind: 'invalid_patch' | 'malformed_patch' | 'apply_failed' | 'test_patch_failed' | 'setup_failed'; readonly text: string }
  | { readonly kind: 'broken'; readonly text: string };

const PREFIX_WORDS = new Set(['applied', 'run', 'invalid_patch', 'malformed_patch', 'apply_failed', 'test_patch_failed', 'setup_failed']);

function fromBase64(text: string): string {
  return Buffer.from(text, 'base64').toString('utf8');
}

/**
 * Read the driver's prefix from the start of the run's stdout: the `crucible:` lines up to and including `run`
 * (what follows is the test command's output, not read here). `broken` when the prefix is not the driver's
 * protocol (it could not have been written by anything else, so that is Crucible's failure).
 */
export function readPrefix(stdout: string): DriverPrefix {
  let applied: LadderStep | undefined;
  let at = 0;
  while (at < stdout.length) {
    const end = stdout.indexOf('\n', at);
    if (end < 0) break;
    const line = stdout.slice(at, end);
    at = end + 1;
    const m = /^crucible: (\S+)(?: (.*))?$/.exec(line);
    if (m === null || !PREFIX_WORDS.has(m[1]!)) return { kind: 'broken', text: `unexpected driver output: ${line.slice(0, 200)}` };
    const [, word, rest = ''] = m;
    if (word === 'applied') {
      if (!([...LADDER, 'empty'] as string[]).includes(rest)) return { kind: 'broken', text: `unknown ladder step ${rest.slice(0, 40)}` };
      applied = rest as LadderStep;
      continue;
    }
    if (word === 'run') {
      if (applied === undefined || !/^[0-9a-f]{32}$/.test(rest)) return { kind: 'broken', text: 'the driver started the tests without applying the patch' };
      return { kind: 'run', applied, nonce: rest };
    }
    return { kind: word as 'invalid_patch', text: fromBase64(rest) };
  }
  return { kind: 'broken', text: stdout === '' ? 'the driver printed nothing' : 'the driver stopped before the tests started' };
}
