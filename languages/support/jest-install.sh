# Sourced by the `prepare` step of languages/jest.yaml: copies Jest 29.7.0 and the two Babel plugins the jest mode
# transforms tests with (TypeScript syntax, ES module imports), with everything they require, from Crucible's own
# node_modules (package.json pins them; `npm ci` in scripts/setup installs them) to the directory of $OUT, which the
# boxes see read-only under /usr; then writes $OUT, the Jest configuration every run uses, last (its presence says the
# copy is complete). Reads only files `npm ci` installed: no network.
set -euo pipefail
src="$(cd "$SUPPORT/../../node_modules" && pwd -P)"
dest="$(dirname "$OUT")"
version=$(/usr/bin/node -p 'require(process.argv[1]).version' "$src/jest/package.json")
[ "$version" = 29.7.0 ] || { echo "jest-install: $src/jest is version $version, expected 29.7.0 (run npm ci)" >&2; exit 1; }
mkdir stage
# The dependency closure of the three roots, resolved as Node.js does (./node_modules of the requiring package, then
# of each enclosing directory); one line per package directory relative to $src, outermost packages only (a nested
# node_modules/ is copied with its package).
/usr/bin/node - "$src" jest babel-jest @babel/preset-typescript @babel/plugin-transform-modules-commonjs > closure.txt <<'JS'
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const [root, ...names] = process.argv.slice(2);
const seen = new Set();
function resolve(from, name) {
  for (let dir = from; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, dir === root ? '' : 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return null;
}
function visit(dir) {
  if (seen.has(dir)) return;
  seen.add(dir);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const required = Object.keys(manifest.dependencies ?? {});
  const optional = [...Object.keys(manifest.optionalDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
  for (const name of required) {
    const found = resolve(dir, name);
    if (found === null) throw new Error(`${relative(root, dir)} requires ${name}, which is not installed`);
    visit(found);
  }
  for (const name of optional) { const found = resolve(dir, name); if (found !== null) visit(found); }
}
for (const name of names) visit(join(root, name));
const outermost = [...seen].map((d) => relative(root, d)).filter((d) => !d.includes('/node_modules/')).sort();
process.stdout.write(outermost.join('\n') + '\n');
JS
while IFS= read -r package; do
  mkdir -p "stage/node_modules/$(dirname "$package")"
  cp -a "$src/$package" "stage/node_modules/$package"
done < closure.txt
rm -rf "$dest/node_modules"
mv stage/node_modules "$dest/node_modules"
chmod -R a+rX,go-w "$dest"
cat > config.json <<JSON
{
  "rootDir": "/box",
  "testEnvironment": "node",
  "cache": false,
  "cacheDirectory": "/tmp/jest-cache",
  "watchman": false,
  "modulePaths": ["$dest/node_modules"],
  "transform": {
    "\\\\.[jt]sx?\$": ["$dest/node_modules/babel-jest/build/index.js", {
      "babelrc": false,
      "configFile": false,
      "presets": ["$dest/node_modules/@babel/preset-typescript/lib/index.js"],
      "plugins": ["$dest/node_modules/@babel/plugin-transform-modules-commonjs/lib/index.js"]
    }]
  }
}
JSON
/usr/bin/node -e 'JSON.parse(require("fs").readFileSync("config.json", "utf8"))'
mv config.json "$OUT"
