/** Reading the JVMTI bytecode counter's total from a run's stderr, and refusing every stream the program could have shaped. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BYTECODE_AGENT, bytecodeArgv, parseBytecodeLog } from '../../src/engine/jvm-bytecodes.js';

const banner = '==2== Crucible bytecode count (JVMTI SingleStep)\n';
const summary = (n: number, pid = 2): string => `==${pid}== bytecodes: ${n}\n==${pid}== threads held: 1\n`;

describe('parseBytecodeLog', () => {
  it('reads the count of a clean stream, with the program\'s own stderr in between', () => {
    assert.deepEqual(parseBytecodeLog(`${banner}Exception in thread "x"\n${summary(28021)}`), { ok: true, bytecodes: 28021, pid: 2 });
  });
  it('takes the final summary when the program printed a fake one earlier', () => {
    assert.deepEqual(parseBytecodeLog(`${banner}${summary(7)}${summary(24047728)}`), { ok: true, bytecodes: 24047728, pid: 2 });
  });
  it('refuses a stream without the banner first, with two banners, or ending with anything but the summary', () => {
    assert.match(String((parseBytecodeLog(`hi\n${banner}${summary(5)}`) as { reason: string }).reason), /begin/);
    assert.match(String((parseBytecodeLog(`${banner}${banner}${summary(5)}`) as { reason: string }).reason), /2 bytecode-counter banners/);
    assert.equal(parseBytecodeLog(`${banner}${summary(5)}trailing\n`).ok, false);
    assert.equal(parseBytecodeLog(`${banner}==2== bytecodes: 5\n`).ok, false, 'the held-threads line is part of the summary');
    assert.equal(parseBytecodeLog(`${banner}${summary(5, 3)}`).ok, false, 'a summary for another pid');
    assert.equal(parseBytecodeLog(`${banner}x${summary(5)}`).ok, false, 'a summary glued to the program\'s unfinished line');
    assert.equal(parseBytecodeLog(banner).ok, false);
  });
  it('refuses a truncated stream and a count that is not a safe integer', () => {
    assert.equal(parseBytecodeLog(`${banner}${summary(5)}`, true).ok, false);
    assert.equal(parseBytecodeLog(`${banner}==2== bytecodes: 99999999999999999999\n==2== threads held: 0\n`).ok, false);
  });
});

describe('bytecodeArgv', () => {
  it('adds -Xint and the agent after the java launcher, and wraps nothing else', () => {
    assert.deepEqual(bytecodeArgv(['/usr/bin/java', '-Xmx256m', '-cp', '/artifact', 'Main']),
      ['/usr/bin/java', '-Xint', `-agentpath:${BYTECODE_AGENT}`, '-Xmx256m', '-cp', '/artifact', 'Main']);
    assert.equal(bytecodeArgv(['/usr/bin/kotlin', 'MainKt']), null);
  });
});
