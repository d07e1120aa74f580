/**
 * A request's files in the box: nested relative paths arrive under /box with their directories, byte for byte, on
 * both run paths (slot box and bubblewrap per run); a kept work directory brings the tree back; names that are not
 * plain relative paths are refused before anything runs.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runLimits } from '../../src/limits.js';
import { isBoxRelativePath, Sandbox } from '../../src/sandbox/index.js';

const limits = runLimits({ cpuMs: 5000, memoryKiB: 256 * 1024 });
const LIST = `
import os
lines = []
for root, dirs, files in os.walk('/box'):
    for name in files:
        path = os.path.join(root, name)
        lines.append(os.path.relpath(path, '/box') + ' ' + open(path, 'rb').read().hex())
print('\\n'.join(sorted(lines)))
`;
const FILES = { 'top.txt': 'a', 'pkg/mod.py': 'b', 'd1/d2/d3/leaf.bin': new Uint8Array([0, 255, 10]) };
const EXPECTED = 'd1/d2/d3/leaf.bin 00ff0a\nmain.py ' + Buffer.from(LIST).toString('hex') + '\npkg/mod.py 62\ntop.txt 61\n';

describe('request files', () => {
  const sandboxes: Sandbox[] = [];
  after(() => sandboxes.forEach((s) => s.close()));

  for (const slotBoxes of [true, false]) {
    it(`places nested files under /box on ${slotBoxes ? 'a slot box' : 'a bubblewrap per run'}`, async () => {
      const sandbox = Sandbox.create({ slots: 1, slotBoxes });
      sandboxes.push(sandbox);
      const { result } = await sandbox.run({ argv: ['/usr/bin/python3.11', '-S', '/box/main.py'], files: { ...FILES, 'main.py': LIST }, limits });
      assert.equal(result.status, 'ok', result.stderr);
      assert.equal(result.stdout, EXPECTED);
    });
  }

  it('a kept work directory holds the nested files again', async () => {
    const sandbox = Sandbox.create({ slots: 1 });
    sandboxes.push(sandbox);
    const kept = await sandbox.run({ argv: ['/bin/true'], files: FILES, limits, keepWorkDir: true });
    assert.equal(kept.result.status, 'ok');
    try {
      const { result } = await sandbox.run({ argv: ['/usr/bin/cat', '/artifact/d1/d2/d3/leaf.bin', '/artifact/pkg/mod.py'], limits,
        mounts: [{ hostPath: kept.workDir!, boxPath: '/artifact' }] });
      assert.equal(result.status, 'ok', result.stderr);
      assert.equal(Buffer.from(result.stdout, 'latin1').length, 4);
      assert.ok(result.stdout.endsWith('\nb'));
    } finally {
      sandbox.discard(kept.workDir!);
    }
  });

  it('refuses names that are not plain relative paths', async () => {
    for (const name of ['/etc/x', '../x', 'a/../../x', 'a//b', './a', '.hidden', 'a/.b', '', 'a\0b', `${'d/'.repeat(16)}x`]) {
      assert.equal(isBoxRelativePath(name), false, JSON.stringify(name));
    }
    for (const name of ['a', 'a/b', 'a.b/c-d_e', `${'d/'.repeat(15)}x`]) assert.equal(isBoxRelativePath(name), true, name);
    const sandbox = Sandbox.create({ slots: 1 });
    sandboxes.push(sandbox);
    await assert.rejects(sandbox.run({ argv: ['/bin/true'], files: { '../escape': 'x' }, limits }), /file name not allowed in a box: \.\.\/escape/);
  });
});
