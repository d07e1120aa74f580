# Sourced by the `prepare` step of languages/eslint.yaml: copies ESLint 10.15.0 and @eslint/js (its recommended
# rules), with every package they require, from Crucible's own node_modules (package.json pins them; `npm ci` in
# scripts/setup installs them) to the directory of $OUT, which the boxes see read-only under /usr; then writes $OUT,
# the flat configuration every run uses, last (its presence says the copy is complete). Reads only files `npm ci`
# installed: no network.
set -euo pipefail
src="$(cd "$SUPPORT/../../node_modules" && pwd -P)"
dest="$(dirname "$OUT")"
version=$(/usr/bin/node -p 'require(process.argv[1]).version' "$src/eslint/package.json")
[ "$version" = 10.15.0 ] || { echo "eslint-install: $src/eslint is version $version, expected 10.15.0 (run npm ci)" >&2; exit 1; }
mkdir -p stage/node_modules
# The packages the two roots require, resolved the way Node.js resolves them (the requiring package's
# node_modules, then each enclosing directory's), outermost directories only (a nested node_modules/ travels
# with its package).
/usr/bin/node - "$src" eslint @eslint/js > closure.txt <<'JS'
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const [root, ...roots] = process.argv.slice(2);
const found = new Set();
const lookup = (from, name) => {
  for (let dir = from; ; dir = dirname(dir)) {
    const here = dir === root ? join(root, name) : join(dir, 'node_modules', name);
    if (existsSync(join(here, 'package.json'))) return here;
    if (dir === root || !dir.startsWith(root)) return null;
  }
};
const walk = (dir) => {
  if (found.has(dir)) return;
  found.add(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    const at = lookup(dir, name);
    if (at === null) throw new Error(`${relative(root, dir)} needs ${name}, not installed`);
    walk(at);
  }
  for (const name of Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies })) {
    const at = lookup(dir, name);
    if (at !== null) walk(at);
  }
};
for (const name of roots) walk(join(root, name));
const top = [...found].map((d) => relative(root, d)).filter((d) => !d.includes('/node_modules/')).sort();
process.stdout.write(`${top.join('\n')}\n`);
JS
while IFS= read -r package; do
  mkdir -p "stage/node_modules/$(dirname "$package")"
  cp -a "$src/$package" "stage/node_modules/$package"
done < closure.txt
rm -rf "$dest/node_modules"
mkdir -p "$dest"
mv stage/node_modules "$dest/node_modules"
cat > config.mjs <<JS
// Crucible's ESLint configuration (languages/eslint.yaml): eslint:recommended, the eval-like rules as errors
// (src/analysis/parsers.ts counts them as security findings), Node.js's globals, any ECMAScript version.
import js from '$dest/node_modules/@eslint/js/src/index.js';
const node = ['require', 'module', 'exports', '__dirname', '__filename', 'console', 'process', 'Buffer', 'global', 'globalThis',
  'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask',
  'structuredClone', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'performance', 'fetch'];
export default [
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 'latest', sourceType: 'script', globals: Object.fromEntries(node.map((g) => [g, 'readonly'])) },
    rules: { 'no-eval': 'error', 'no-implied-eval': 'error', 'no-new-func': 'error', 'no-script-url': 'error' },
  },
];
JS
chmod -R a+rX,go-w "$dest"
/usr/bin/node --input-type=module -e "await import('$PWD/config.mjs')"
mv config.mjs "$OUT"
