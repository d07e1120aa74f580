import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expandArgv, toolchainMounts } from '../../src/languages/argv.js';
import { isUpToDate, prepareLanguages } from '../../src/languages/prepare.js';
import { LanguageFileError, LanguageRegistry, parseLanguageFile } from '../../src/languages/registry.js';
import type { Language } from '../../src/languages/schema.js';
import { PROJECT_ROOT } from '../../src/sandbox/paths.js';

const registry = LanguageRegistry.load();
const work = mkdtempSync(join(tmpdir(), 'crucible-languages-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

const MINIMAL = 'id: x\nname: X\nsourceFile: main.x\nrun: [/usr/bin/x, /box/main.x]\nversion: [/usr/bin/x, --version]\npackages: [x]\n';

describe('language files', () => {
  it('scripts/setup installs exactly the packages the language files name (plus the sandbox\'s, the tests\' and the repository kind\'s)', () => {
    const listed = execFileSync('bash', [join(PROJECT_ROOT, 'scripts/setup'), '--list-packages'], { encoding: 'utf8' }).trim().split('\n');
    const wanted = new Set(['bubblewrap', 'util-linux', 'chromium', 'postgresql', 'redis-server', 'python3-setuptools', 'python3-venv', 'python3-pip', 'git', 'patch', 'valgrind',
      ...registry.languages.flatMap((l) => l.packages)]);
    assert.deepEqual(listed, [...wanted].sort());
  });

  it('keep each `packages:` list on one line, which scripts/setup reads without a YAML parser', () => {
    for (const language of registry.languages) {
      const text = readFileSync(join(PROJECT_ROOT, 'languages', `${language.id}.yaml`), 'utf8');
      assert.ok(text.split('\n').includes(`packages: [${language.packages.join(', ')}]`), language.id);
    }
  });

  it('reject an unknown argv placeholder, naming file, line and field', () => {
    const text = MINIMAL.replace('run: [/usr/bin/x, /box/main.x]', 'run: [/usr/bin/x, "-m{memoryMiB}", /box/main.x]');
    assert.throws(() => parseLanguageFile('bad.yaml', text), (e: Error) =>
      e instanceof LanguageFileError && /bad\.yaml:4: field "run\.1": unknown placeholder; allowed: \{memoryLimitMiB\}/.test(e.message));
  });

  it('reject relative or ".." read-only paths, and warm-start files outside /usr', () => {
    assert.throws(() => parseLanguageFile('bad.yaml', `${MINIMAL}readOnlyPaths: [etc/x]\n`), /field "readOnlyPaths\.0": an absolute path/);
    assert.throws(() => parseLanguageFile('bad.yaml', `${MINIMAL}readOnlyPaths: [/etc/../root]\n`), /no "\.\." components/);
    assert.throws(() => parseLanguageFile('bad.yaml', `${MINIMAL}prepare: [{ creates: /tmp/x.jsa, script: "true" }]\n`),
      /field "prepare\.0\.creates": must be under \/usr/);
  });

  it('reject a compile step that includes a support file that does not exist', () => {
    const language = parseLanguageFile('x.yaml', `${MINIMAL}compile: { argv: [/usr/bin/x], include: [nope.sh] }\n`);
    assert.throws(() => new LanguageRegistry([language]), /compile\.include: languages\/support\/nope\.sh not found/);
  });

  it('give the compile box the included support files next to the source', () => {
    const java = registry.get('java');
    const files = registry.compileFiles(java);
    assert.deepEqual(Object.keys(files), ['jvm-main-class.sh']);
    assert.match(files['jvm-main-class.sh']!, /crucible_main_class\(\)/);
  });
});

describe('argv placeholders and toolchain mounts', () => {
  it('replace {memoryLimitMiB} with whole MiB, at least 1', () => {
    assert.deepEqual(expandArgv(['/usr/bin/java', '-Xmx{memoryLimitMiB}m', 'x'], { memoryLimitMiB: 512.7 }), ['/usr/bin/java', '-Xmx512m', 'x']);
    assert.deepEqual(expandArgv(['{memoryLimitMiB}'], { memoryLimitMiB: 0.2 }), ['1']);
  });

  it('bind the run\'s read-only paths in every box and the compiler\'s only in the compile box', () => {
    const language = parseLanguageFile('x.yaml', `${MINIMAL}readOnlyPaths: [/etc/x]\ncompile: { argv: [/usr/bin/xc], readOnlyPaths: [/etc/xc.conf] }\n`);
    assert.deepEqual(toolchainMounts(language, 'run'), [{ hostPath: '/etc/x', boxPath: '/etc/x' }]);
    assert.deepEqual(toolchainMounts(language, 'compile'), [{ hostPath: '/etc/x', boxPath: '/etc/x' }, { hostPath: '/etc/xc.conf', boxPath: '/etc/xc.conf' }]);
  });
});

describe('warm-start files (prepare)', () => {
  const source = join(work, 'runtime.jar');
  const target = join(work, 'archive.jsa');
  const language = (script: string): Language => ({
    ...parseLanguageFile('x.yaml', MINIMAL),
    prepare: [{ creates: target, from: ['$SUPPORT/runtime.jar'], script }], // resolved in `work`, the support directory below
  });

  it('make a missing file with $OUT and $SUPPORT set, then leave it alone until a `from` file ($SUPPORT/...) is newer', () => {
    writeFileSync(source, 'v1');
    const lang = language('test -d "$SUPPORT" && echo made > "$OUT"');
    const first = prepareLanguages([lang], () => true, work);
    assert.deepEqual(first.map((o) => o.action), ['created']);
    assert.equal(readFileSync(target, 'utf8'), 'made\n');
    assert.equal(isUpToDate(lang.prepare[0]!, work), true);
    assert.deepEqual(prepareLanguages([lang], () => true, work).map((o) => o.action), ['up_to_date']);
    const later = new Date(Date.now() + 60_000);
    utimesSync(source, later, later);
    assert.equal(isUpToDate(lang.prepare[0]!, work), false);
    assert.deepEqual(prepareLanguages([lang], () => true, work).map((o) => o.action), ['created']);
  });

  it('report a failing script with its output, remove what it left, and go on with the next language', () => {
    rmSync(target, { force: true });
    const failing = language('echo partial > "$OUT"; echo "no compiler here" >&2; exit 3');
    const outcomes = prepareLanguages([failing], () => true, work);
    assert.equal(outcomes[0]!.action, 'failed');
    assert.match(outcomes[0]!.detail!, /exit 3: no compiler here/);
    assert.equal(isUpToDate(failing.prepare[0]!, work), false, 'no partial archive is left behind');
  });

  it('skip a language whose toolchain is not installed', () => {
    const outcomes = prepareLanguages([language('echo x > "$OUT"')], () => false, work);
    assert.deepEqual(outcomes.map((o) => o.action), ['skipped']);
  });
});
