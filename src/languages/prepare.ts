/**
 * Warm-start files made once per host (schema.ts `prepareSchema`): e.g. class-data sharing archives of the JVM
 * languages' runtime jars, which every run maps read-only. Run by `crucible languages --prepare` from
 * `scripts/setup`, as root, on the host: the scripts are trusted data of the language files and run only
 * trusted toolchain binaries on trusted inputs (they never see a submission).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Language, PrepareStep } from './schema.js';

/** What happened to one warm-start file. */
export interface PrepareOutcome {
  readonly language: string;
  readonly creates: string;
  readonly action: 'up_to_date' | 'created' | 'failed' | 'skipped';
  /** For `failed`: the script's exit status and the tail of its output; for `skipped`: why. */
  readonly detail: string | null;
  readonly wallMs: number;
}

/**
 * True when `step.creates` exists and is at least as new as every existing file of `step.from` (`$SUPPORT/<file>`
 * resolved in `supportDir`).
 */
export function isUpToDate(step: PrepareStep, supportDir: string): boolean {
  if (!existsSync(step.creates)) return false;
  const made = statSync(step.creates).mtimeMs;
  const resolve = (path: string): string => path.startsWith('$SUPPORT/') ? join(supportDir, path.slice('$SUPPORT/'.length)) : path;
  return step.from.map(resolve).every((path) => !existsSync(path) || statSync(path).mtimeMs <= made);
}

/**
 * Make every missing or stale warm-start file of `languages`. Each script runs in bash in an empty temporary
 * directory with `$OUT` (the file to create) and `$SUPPORT` (`supportDir`, i.e. languages/support) set. A language whose toolchain is absent
 * (`available(language)` false) is skipped; a failing script is reported, and its partial output removed,
 * never thrown: one toolchain's trouble must not stop the set-up of the others.
 */
export function prepareLanguages(languages: readonly Language[], available: (language: Language) => boolean,
  supportDir: string, log: (line: string) => void = () => {}): PrepareOutcome[] {
  const outcomes: PrepareOutcome[] = [];
  for (const language of languages) {
    for (const step of language.prepare) {
      const started = performance.now();
      const done = (action: PrepareOutcome['action'], detail: string | null): void => {
        const outcome = { language: language.id, creates: step.creates, action, detail, wallMs: Math.round(performance.now() - started) };
        outcomes.push(outcome);
        if (action !== 'up_to_date') log(`${language.id}: ${step.creates}: ${action}${detail ? ` (${detail})` : ''} in ${outcome.wallMs} ms`);
      };
      if (isUpToDate(step, supportDir)) { done('up_to_date', null); continue; }
      if (!available(language)) { done('skipped', 'toolchain not installed'); continue; }
      mkdirSync(dirname(step.creates), { recursive: true, mode: 0o755 });
      const work = mkdtempSync(join(tmpdir(), `crucible-prepare-${language.id}-`));
      try {
        // --norc: bash reads /etc/bash.bashrc when its stdin is a socket, as Node's pipes are.
        const result = spawnSync('/usr/bin/bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', step.script], {
          cwd: work,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { PATH: '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8', OUT: step.creates, SUPPORT: supportDir },
          encoding: 'utf8',
          timeout: 600_000,
          maxBuffer: 16 * 1024 * 1024,
        });
        if (result.status === 0 && existsSync(step.creates)) {
          done('created', null);
        } else {
          rmSync(step.creates, { force: true });
          const tail = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-5).join(' | ');
          done('failed', `exit ${result.status ?? result.signal ?? result.error?.message}: ${tail}`);
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }
  }
  return outcomes;
}
