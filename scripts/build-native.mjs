// Builds the sandbox's two small native programs (crucible-box, box-init) with the system C compiler.
// Static linking: they exec faster (no dynamic loader) and box-init runs inside boxes without /lib.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build', 'native');
mkdirSync(out, { recursive: true });
for (const name of ['crucible-box', 'box-init']) {
  const source = join(root, 'src', 'sandbox', 'native', `${name}.c`);
  const target = join(out, name);
  let fresh = false;
  try {
    fresh = statSync(target).mtimeMs >= statSync(source).mtimeMs;
  } catch {
    fresh = false;
  }
  if (fresh) continue;
  execFileSync('gcc', ['-O2', '-static', '-Wall', '-Werror', '-o', target, source], { stdio: 'inherit' });
}
