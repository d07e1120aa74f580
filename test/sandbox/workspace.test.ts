/**
 * Prepared workspaces, outboxes, a loopback of the box's own and allow-listed egress, in the real sandbox: layers are
 * merged copy-on-write and never written, a run's writes are bounded and die with it, kept writes become a layer,
 * the outbox comes back after the run, and the egress proxy relays only what it allows.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EgressProxy, EGRESS_BOX_SOCKET } from '../../src/sandbox/egress.js';
import { Sandbox } from '../../src/sandbox/index.js';
import type { Limits, SandboxRequest } from '../../src/sandbox/types.js';

const LIMITS: Limits = { cpuMs: 5000, wallMs: 20_000, memoryKiB: 256 * 1024, processes: 32, fileSizeKiB: 64 * 1024, openFiles: 64,
  outputBytes: 1 << 20, diskKiB: 4096 };

let dir: string;
let top: string;
let bottom: string;
let sandbox: Sandbox;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-ws-test-'));
  top = join(dir, 'top');
  bottom = join(dir, 'bottom');
  mkdirSync(join(bottom, 'src'), { recursive: true });
  mkdirSync(join(top, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(bottom, 'src', 'a.txt'), 'base\n');
  writeFileSync(join(bottom, 'shadowed.txt'), 'bottom\n');
  writeFileSync(join(top, 'shadowed.txt'), 'top\n');
  writeFileSync(join(top, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  execFileSync('/bin/chmod', ['-R', 'go-rwx', dir]); // root's only: the box never needs the host path
  sandbox = Sandbox.create({ slots: 1 });
});
after(() => {
  sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(script: string, extra: Partial<SandboxRequest> = {}): Promise<ReturnType<Sandbox['run']> extends Promise<infer R> ? R : never> {
  return sandbox.run({ argv: ['/bin/bash', '-c', script], limits: LIMITS, ...extra });
}

function digest(path: string): string {
  return execFileSync('/bin/bash', ['-c', 'cd "$1" && find . -printf "%p %m %s %U\\n" | sort && cat $(find . -type f | sort) | sha256sum', 'd', path], { encoding: 'utf8' });
}

describe('prepared workspaces', () => {
  it('merges the layers top first, owned by the box (uid 1000), copy-on-write: the layers never change', async () => {
    const before = [digest(top), digest(bottom)];
    const { result } = await run('cd /testbed && id -u && cat shadowed.txt src/a.txt && stat -c %u src/a.txt && echo x >> src/a.txt && rm shadowed.txt '
      + '&& echo new > new.txt && rm -r node_modules/dep && cat src/a.txt && ls', { workspace: { layers: [top, bottom], boxPath: '/testbed', writable: 'overlay' } });
    assert.equal(result.status, 'ok', result.stderr);
    assert.equal(result.stdout, '1000\ntop\nbase\n1000\nbase\nx\nnew.txt\nnode_modules\nsrc\n');
    assert.deepEqual([digest(top), digest(bottom)], before);
    const again = await run('cat /testbed/src/a.txt /testbed/shadowed.txt; ls /testbed', { workspace: { layers: [top, bottom], boxPath: '/testbed', writable: 'overlay' } });
    assert.equal(again.result.stdout, 'base\ntop\nnode_modules\nshadowed.txt\nsrc\n', 'a later run sees none of the first run\'s writes');
  });

  it('bounds the writable layer by the run\'s disk quota', async () => {
    const { result } = await run('dd if=/dev/zero of=/testbed/big bs=1M count=64 2>&1; stat -c %s /testbed/big',
      { workspace: { layers: [bottom], boxPath: '/testbed', writable: 'overlay' } });
    assert.match(result.stdout, /No space left on device/);
    assert.ok(Number(result.stdout.trim().split('\n').pop()) <= LIMITS.diskKiB! * 1024);
  });

  it('mounts read-only when asked', async () => {
    const { result } = await run('echo x > /testbed/src/a.txt', { workspace: { layers: [top, bottom], boxPath: '/testbed', writable: 'read_only' } });
    assert.equal(result.status, 'runtime_error');
    assert.match(result.stderr, /Read-only file system/);
    const single = await run('cat /testbed/src/a.txt', { workspace: { layers: [bottom], boxPath: '/testbed', writable: 'read_only' } });
    assert.equal(single.result.stdout, 'base\n');
  });

  it('keeps a run\'s writes as a new layer when asked (how dependencies are installed)', async () => {
    const upper = join(dir, 'kept-upper');
    const work = join(dir, 'kept-work');
    mkdirSync(upper);
    mkdirSync(work);
    const { result } = await run('mkdir -p /testbed/node_modules/x && echo installed > /testbed/node_modules/x/i.js',
      { workspace: { layers: [bottom], boxPath: '/testbed', writable: 'overlay', keepWrites: { upperDir: upper, workDir: work } } });
    assert.equal(result.status, 'ok', result.stderr);
    assert.equal(readFileSync(join(upper, 'node_modules', 'x', 'i.js'), 'utf8'), 'installed\n');
    assert.notEqual(statSync(join(upper, 'node_modules', 'x', 'i.js')).uid, 0, 'written by the slot\'s uid');
  });

  it('refuses box paths over the box\'s own places, and odd layer paths', async () => {
    await assert.rejects(run('true', { workspace: { layers: [bottom], boxPath: '/box', writable: 'overlay' } }), RangeError);
    await assert.rejects(run('true', { workspace: { layers: [`${bottom},upperdir=/etc`], boxPath: '/testbed', writable: 'overlay' } }), RangeError);
    await assert.rejects(run('true', { workspace: { layers: [], boxPath: '/testbed', writable: 'overlay' } }), RangeError);
  });
});

describe('outboxes', () => {
  it('returns the outbox\'s regular files once the run is over, never a link', async () => {
    const { result } = await run('echo r > /crucible/out/report; mkdir /crucible/out/d; echo z > /crucible/out/d/z; ln -s /etc/passwd /crucible/out/link; '
      + 'mkfifo /crucible/out/fifo; (sleep 0.2; echo late > /crucible/out/late) & exit 3', { outbox: true });
    assert.equal(result.exitCode, 3);
    assert.deepEqual(result.outbox?.files, { 'd/z': 'z\n', report: 'r\n' });
  });

  it('is empty when the run wrote nothing, and a run without one has none', async () => {
    assert.deepEqual((await run('true', { outbox: true })).result.outbox, { files: {}, skipped: 0 });
    assert.equal((await run('ls /crucible/out 2>&1; true')).result.outbox, undefined);
  });
});

describe('a loopback of the box\'s own', () => {
  it('serves on 127.0.0.1 inside the box and reaches nothing outside', async () => {
    let outside = 0;
    const host: Server = createServer((s) => {
      outside++;
      s.destroy();
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const port = (host.address() as { port: number }).port;
    const script = `node -e "const n=require('net'); const s=n.createServer((c)=>c.end('hi')).listen(${port}, '127.0.0.1', () => `
      + `n.connect(${port}, '127.0.0.1').on('data', (d) => { console.log(String(d)); s.close(); process.exit(0) }))"`;
    const { result } = await run(script, { loopback: true });
    host.close();
    assert.equal(result.stdout, 'hi\n', result.stderr);
    assert.equal(outside, 0);
  });

  it('resolves localhost to 127.0.0.1 from Crucible\'s own /etc/hosts (tests call http://localhost:PORT), never the host\'s', async () => {
    const script = `node -e "require('dns').lookup('localhost', { all: true }, (e, a) => { console.log(e ? e.code : JSON.stringify(a)) })"; cat /etc/hosts`;
    const { result } = await run(script, { loopback: true });
    assert.equal(result.stdout, '[{"address":"127.0.0.1","family":4}]\n127.0.0.1\tlocalhost\n', result.stderr);
  });
});

describe('allow-listed egress', () => {
  let echo: Server;
  let allowed = 0;
  let other: Server;
  before(async () => {
    echo = createServer((s) => s.on('data', (d) => s.end(`echo:${String(d)}`)));
    other = createServer((s) => s.end('other'));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    allowed = (echo.address() as { port: number }).port;
  });
  after(() => {
    echo.close();
    other.close();
  });

  it('relays CONNECT to an allowed destination and refuses any other, and plain requests', async () => {
    const proxy = await EgressProxy.start([{ host: '127.0.0.1', port: allowed }]);
    const otherPort = (other.address() as { port: number }).port;
    const clientJs = `const s = require('net').connect('${EGRESS_BOX_SOCKET}'); let out = '';
s.on('data', (d) => { out += d; if (out.startsWith('HTTP/1.1 200') && out.endsWith('\\r\\n\\r\\n')) s.write('ping'); });
s.on('close', () => console.log(JSON.stringify(out)));
s.write(process.argv[2].replace(/\\\\r\\\\n/g, '\\r\\n'));`;
    const client = (request: string): string => `node /box/client.js '${request.replace(/\r\n/g, '\\r\\n')}'`;
    try {
      const { result } = await run(`${client(`CONNECT 127.0.0.1:${allowed} HTTP/1.1\r\n\r\n`)}; ${client(`CONNECT 127.0.0.1:${otherPort} HTTP/1.1\r\n\r\n`)}; `
        + `${client('GET http://example.com/ HTTP/1.1\r\n\r\n')}`, { mounts: [proxy.mount], loopback: true, files: { 'client.js': clientJs } });
      const [ok, refused, plain] = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as string);
      assert.match(ok!, /^HTTP\/1\.1 200 Connection Established\r\n\r\necho:ping$/);
      assert.match(refused!, /^HTTP\/1\.1 403/);
      assert.match(plain!, /^HTTP\/1\.1 405/);
      assert.deepEqual(proxy.counts, { relayed: 1, refused: 2 });
    } finally {
      await proxy.close();
    }
  });
});
