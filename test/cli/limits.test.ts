/**
 * Limits on the command line: a time or memory limit outside the allowed range (`LIMIT_RANGES`) is refused
 * before anything runs, with the flag, the value and the range in one line, exit code 2 and no stack trace.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../src/paths.js';

const run = promisify(execFile);
const CRUCIBLE = join(PROJECT_ROOT, 'bin', 'crucible');

async function refused(args: readonly string[]): Promise<string> {
  try {
    await run(CRUCIBLE, args);
  } catch (error) {
    const e = error as { code?: number; stderr?: string };
    assert.equal(e.code, 2, e.stderr);
    assert.doesNotMatch(e.stderr ?? '', /\n\s+at /, 'no stack trace');
    return e.stderr ?? '';
  }
  assert.fail(`crucible ${args.join(' ')} was accepted`);
}

describe('limits given on the command line', () => {
  it('eval --time-limit 1e9 and 0.0001 name the allowed range in seconds', async () => {
    assert.match(await refused(['eval', '--time-limit', '1e9']), /--time-limit.*1e9 s is outside the allowed range 0\.01 s to 60 s/);
    assert.match(await refused(['eval', '--time-limit', '0.0001']), /0\.0001 s is outside the allowed range 0\.01 s to 60 s/);
  });

  it('an absurd --memory-limit names the allowed range in MiB', async () => {
    assert.match(await refused(['eval', '--memory-limit', '1']), /--memory-limit.*1 MiB is outside the allowed range 16 MiB to 16384 MiB/);
    assert.match(await refused(['run', 'x.py', '--lang', 'python', '--memory-limit', '1e12']), /1e12 MiB is outside the allowed range/);
    assert.match(await refused(['serve', '--time-limit', '3600']), /3600 s is outside the allowed range/);
  });
});
