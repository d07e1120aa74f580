/** Reading callgrind's total from a run's stderr, and refusing every stream the program could have shaped. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callgrindArgv, parseCallgrindLog } from '../../src/engine/callgrind.js';

const banner = '==2== Callgrind, a call-graph generating cache profiler\n==2== Copyright (C) 2002-2017, and GNU GPL\'d, by Josef Weidendorfer et al.\n'
  + '==2== Command: /artifact/main\n==2== \n==2== For interactive control, run \'callgrind_control -h\'.\n';
const summary = (n: number, shown = n.toLocaleString('en-US')): string => `==2== \n==2== Events    : Ir\n==2== Collected : ${n}\n==2== \n==2== I   refs:      ${shown}\n`;

describe('parseCallgrindLog', () => {
  it('reads the total of a clean log, with the program\'s own stderr in between', () => {
    assert.deepEqual(parseCallgrindLog(`${banner}program says hi\n${summary(117016)}`), { ok: true, instructions: 117016, pid: 2 });
  });
  it('takes the final summary when the program printed a fake one earlier', () => {
    const r = parseCallgrindLog(`${banner}${summary(5)}${summary(21670974)}`);
    assert.deepEqual(r, { ok: true, instructions: 21670974, pid: 2 });
  });
  it('refuses a stream that does not begin with the banner, has two banners, or ends with anything else', () => {
    assert.equal(parseCallgrindLog(`fake\n${banner}${summary(5)}`).ok, false);
    assert.equal(parseCallgrindLog(`${banner}${banner}${summary(5)}`).ok, false);
    assert.equal(parseCallgrindLog(`${banner}${summary(5)}trailing\n`).ok, false);
    assert.equal(parseCallgrindLog(`${banner}${summary(5).replaceAll('==2==', '==3==')}`).ok, false);
    assert.equal(parseCallgrindLog(`${banner}${summary(5, '6')}`).ok, false);
    assert.equal(parseCallgrindLog(`${banner}${summary(5)}`, true).ok, false);
    assert.equal(parseCallgrindLog('').ok, false);
  });
  it('wraps argv in valgrind with no profile file and children traced', () => {
    const argv = callgrindArgv(['/artifact/main']);
    assert.equal(argv[0], '/usr/bin/valgrind');
    assert.ok(argv.includes('--callgrind-out-file=/dev/null') && argv.includes('--trace-children=yes'));
    assert.equal(argv.at(-1), '/artifact/main');
  });
});
