// Builds the sandbox's small native programs with the system C compiler: crucible-box (one execution per
// process), box-init (pid 1 of such a box), crucible-slot (a slot's long-lived box), box-server (pid 1 of it) and
// session-agent (pid 1 of a session's box, src/sandbox/session-box.ts), and crucible-reaper (the subreaper `serve` and
// `worker` run under when they are pid 1 of a container: src/cli/reaper.ts).
// Static linking: they exec faster (no dynamic loader) and the in-box ones need nothing from the box's /lib.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build', 'native');
mkdirSync(out, { recursive: true });
const native = join(root, 'src', 'sandbox', 'native');
// Every program is rebuilt when any shared header changes (they are few and small).
const headersChanged = Math.max(...readdirSync(native).filter((f) => f.endsWith('.h')).map((f) => statSync(join(native, f)).mtimeMs));
for (const name of ['crucible-box', 'box-init', 'crucible-slot', 'box-server', 'session-agent', 'crucible-reaper']) {
  const source = join(native, `${name}.c`);
  const target = join(out, name);
  let fresh = false;
  try {
    const built = statSync(target).mtimeMs;
    fresh = built >= statSync(source).mtimeMs && built >= headersChanged;
  } catch {
    fresh = false;
  }
  if (fresh) continue;
  execFileSync('gcc', ['-O2', '-static', '-Wall', '-Werror', '-o', target, source], { stdio: 'inherit' });
}
