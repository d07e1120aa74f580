/**
 * git, as the trusted side runs it on repository sources (a dataset's data, read on the host): with no system or
 * global configuration, no hooks, no pager, no prompts, and never in a work tree the box can write.
 */
import { execFile } from 'node:child_process';
import { EnvironmentError } from '../../judge/environment.js';

/** The environment of every git the trusted side runs (nothing of the caller's configuration). */
export const GIT_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/bin:/bin',
  HOME: '/nonexistent',
  LANG: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  GIT_AUTHOR_NAME: 'crucible',
  GIT_AUTHOR_EMAIL: 'crucible@localhost',
  GIT_COMMITTER_NAME: 'crucible',
  GIT_COMMITTER_EMAIL: 'crucible@localhost',
  // One fixed date: the base commit Crucible makes says nothing about when, or who, the task is from.
  GIT_AUTHOR_DATE: '@0 +0000',
  GIT_COMMITTER_DATE: '@0 +0000',
};

/** Options every git call starts with. */
const GIT_OPTIONS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'core.autocrlf=false',
  '-c', 'core.symlinks=true', '-c', 'advice.detachedHead=false', '-c', 'gc.auto=0'];

/**
 * Run git with `args` (after the fixed options), optionally with more environment. Resolves its stdout.
 * @throws EnvironmentError with git's stderr when it fails; the signal's reason when aborted.
 */
export function git(args: readonly string[], options: { readonly env?: Readonly<Record<string, string>>; readonly cwd?: string;
  readonly signal?: AbortSignal; readonly maxBuffer?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/git', [...GIT_OPTIONS, ...args], {
      env: { ...GIT_ENV, ...options.env }, cwd: options.cwd ?? '/', maxBuffer: options.maxBuffer ?? 64 << 20,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout);
      if (options.signal?.aborted) return reject(options.signal.reason);
      reject(new EnvironmentError(`git ${args.slice(0, 3).join(' ')}: ${String(stderr).trim().slice(0, 500) || error.message}`));
    });
  });
}
