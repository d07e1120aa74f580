/**
 * A scratch directory for tests of the `crucible` command line: `bin/crucible` run with its own cache directory
 * (`CRUCIBLE_CACHE_DIR` under the scratch directory), and JSONL files written there. The directory is removed
 * after the test file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { PROJECT_ROOT } from '../../src/paths.js';

/** What one `crucible` invocation printed and its exit status (1 when the process gave none). */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The scratch directory and its two tools. */
export interface CliWorkspace {
  readonly dir: string;
  /** Run `bin/crucible args` with the workspace's cache; never rejects. */
  crucible(args: readonly string[]): Promise<CliResult>;
  /** Write `rows` as JSONL to `dir/name`; returns the path. */
  file(name: string, rows: readonly object[]): string;
}

/** A workspace under the system temp directory whose name starts with `crucible-<prefix>-`. */
export function cliWorkspace(prefix: string): CliWorkspace {
  const dir = mkdtempSync(join(tmpdir(), `crucible-${prefix}-`));
  const env = { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') };
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    crucible: (args) => new Promise((resolve) => {
      execFile(join(PROJECT_ROOT, 'bin', 'crucible'), args, { maxBuffer: 64 << 20, env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    }),
    file: (name, rows) => {
      const path = join(dir, name);
      writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return path;
    },
  };
}
