// Crucible: did a patch change package.json keys the repository task protects? (src/kinds/repository/driver.ts)
// Trusted, run in the judgement's box before any code of the candidate's: it only reads JSON.
// Usage: package-keys.cjs KEY,KEY,... BASE NEW [BASE NEW ...]   (a missing BASE is a file the base commit lacks)
// Exit 0: unchanged; 1: changed (the reason on stdout); 2: cannot tell (the error on stdout).
'use strict';
const fs = require('fs');
const [keysArg, ...files] = process.argv.slice(2);
const keys = (keysArg || '').split(',').filter(Boolean);
function read(path) {
  let text;
  try { text = fs.readFileSync(path, 'utf8'); } catch { return { missing: true }; }
  try { return { value: JSON.parse(text) }; } catch (e) { return { invalid: String(e && e.message) }; }
}
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value === undefined ? null : value);
}
for (let i = 0; i + 1 < files.length; i += 2) {
  const base = read(files[i]);
  const next = read(files[i + 1]);
  const name = files[i + 1];
  if (base.invalid !== undefined) { process.stdout.write(`${name}: the base commit's file is not JSON (${base.invalid})\n`); process.exit(2); }
  if (next.invalid !== undefined) { process.stdout.write(`${name}: the patch leaves it invalid JSON (${next.invalid})\n`); process.exit(1); }
  const before = base.value && typeof base.value === 'object' ? base.value : {};
  const after = next.value && typeof next.value === 'object' ? next.value : {};
  for (const key of keys) {
    if (canonical(before[key]) !== canonical(after[key])) {
      process.stdout.write(`${name}: the patch changes "${key}", which the task protects (it decides which tests run and how)\n`);
      process.exit(1);
    }
  }
}
process.exit(0);
