// Trusted in-box step of the TypeScript toolchain: transpile one file with Debian's TypeScript compiler.
// Syntax errors are reported on stderr with line and column and exit 1 (a compile error); types are not
// checked (Debian ships no @types/node). Usage: node transpile.cjs IN.ts OUT.js
'use strict';
const fs = require('fs');
const ts = require('/usr/share/nodejs/typescript');
const [input, output] = process.argv.slice(2);
const source = fs.readFileSync(input, 'utf8');
const result = ts.transpileModule(source, {
  fileName: input,
  reportDiagnostics: true,
  compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS },
});
const errors = (result.diagnostics || []).filter((d) => d.category === ts.DiagnosticCategory.Error);
for (const d of errors) {
  const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
  const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  process.stderr.write(`${input}${where ? `:${where.line + 1}:${where.character + 1}` : ''}: error TS${d.code}: ${text}\n`);
}
if (errors.length > 0) process.exit(1);
fs.writeFileSync(output, result.outputText);
