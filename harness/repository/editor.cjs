// Crucible: the file editor of a repository session (src/sessions/environments/repository.ts), in the shape agents
// use (SWE-agent / OpenHands `str_replace_editor`): view (a file with line numbers, or a directory two levels deep),
// create, str_replace (the old text must occur exactly once), insert (after a line; 0 is the top). Runs in the
// session's own box, on its own files; it reads its request as base64 JSON (so no text of the request
// is ever read by the shell; the request comes on stdin, a heredoc of the step). Exit 0 with the result on stdout,
// or 1 with the error on stderr.
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = '/testbed';
const SNIPPET = 4;

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function numbered(lines, first) {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
}

function resolvePath(given) {
  if (typeof given !== 'string' || given === '') fail('path: required');
  return path.isAbsolute(given) ? path.normalize(given) : path.join(ROOT, given);
}

function readText(file) {
  let stat;
  try { stat = fs.statSync(file); } catch { fail(`The path ${file} does not exist.`); }
  if (!stat.isFile()) fail(`The path ${file} is not a file.`);
  return fs.readFileSync(file, 'utf8');
}

function snippet(text, aroundLine, newLines) {
  const lines = text.split('\n');
  const start = Math.max(0, aroundLine - SNIPPET);
  const end = Math.min(lines.length, aroundLine + newLines + SNIPPET);
  return numbered(lines.slice(start, end), start + 1);
}

function view(req) {
  const target = resolvePath(req.path);
  let stat;
  try { stat = fs.statSync(target); } catch { fail(`The path ${target} does not exist.`); }
  if (stat.isDirectory()) {
    if (req.view_range !== undefined) fail('view_range is not allowed when path is a directory.');
    const out = [];
    const walk = (dir, depth) => {
      for (const name of fs.readdirSync(dir).sort()) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        const p = path.join(dir, name);
        out.push(p);
        let isDir = false;
        try { isDir = fs.lstatSync(p).isDirectory(); } catch { /* gone */ }
        if (isDir && depth < 2) walk(p, depth + 1);
      }
    };
    walk(target, 1);
    return `Files and directories up to 2 levels deep in ${target}, excluding hidden items and node_modules:\n${[target, ...out].join('\n')}\n`;
  }
  const lines = readText(target).split('\n');
  let first = 1;
  let last = lines.length;
  if (req.view_range !== undefined) {
    const [a, b] = req.view_range;
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || a > lines.length || (b !== -1 && (b < a || b > lines.length))) {
      fail(`Invalid view_range ${JSON.stringify(req.view_range)}: the file has ${lines.length} lines; give [start, end] with 1 <= start <= end <= ${lines.length}, or end -1.`);
    }
    first = a;
    last = b === -1 ? lines.length : b;
  }
  return `Here's the result of running \`cat -n\` on ${target}:\n${numbered(lines.slice(first - 1, last), first)}\n`;
}

function create(req) {
  const target = resolvePath(req.path);
  if (typeof req.file_text !== 'string') fail('file_text: required for create');
  if (fs.existsSync(target)) fail(`File already exists at: ${target}. Cannot overwrite files using command \`create\`.`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, req.file_text);
  return `File created successfully at: ${target}\n`;
}

function strReplace(req) {
  const target = resolvePath(req.path);
  if (typeof req.old_str !== 'string' || req.old_str === '') fail('old_str: required (and not empty) for str_replace');
  const newStr = typeof req.new_str === 'string' ? req.new_str : '';
  const text = readText(target);
  const found = [];
  for (let at = text.indexOf(req.old_str); at >= 0; at = text.indexOf(req.old_str, at + 1)) found.push(at);
  if (found.length === 0) fail(`No replacement was performed, old_str \`${req.old_str}\` did not appear verbatim in ${target}.`);
  if (found.length > 1) {
    const lines = found.map((at) => text.slice(0, at).split('\n').length);
    fail(`No replacement was performed. Multiple occurrences of old_str \`${req.old_str}\` in lines ${JSON.stringify(lines)}. Please ensure it is unique.`);
  }
  const next = text.slice(0, found[0]) + newStr + text.slice(found[0] + req.old_str.length);
  fs.writeFileSync(target, next);
  const line = text.slice(0, found[0]).split('\n').length - 1;
  return `The file ${target} has been edited. Here's the result of running \`cat -n\` on a snippet of ${target}:\n`
    + `${snippet(next, line, newStr.split('\n').length)}\nReview the changes and make sure they are as expected.\n`;
}

function insert(req) {
  const target = resolvePath(req.path);
  if (typeof req.new_str !== 'string') fail('new_str: required for insert');
  const lines = readText(target).split('\n');
  const at = req.insert_line;
  if (!Number.isInteger(at) || at < 0 || at > lines.length) fail(`Invalid insert_line ${at}: it must be from 0 to ${lines.length}.`);
  const added = req.new_str.split('\n');
  const next = [...lines.slice(0, at), ...added, ...lines.slice(at)].join('\n');
  fs.writeFileSync(target, next);
  return `The file ${target} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n`
    + `${snippet(next, at, added.length)}\nReview the changes and make sure they are as expected.\n`;
}

let req;
try {
  req = JSON.parse(Buffer.from(fs.readFileSync(0, 'utf8'), 'base64').toString('utf8'));
} catch {
  fail('crucible editor: unreadable request');
}
const commands = { view, create, str_replace: strReplace, insert };
const command = commands[req.command];
if (command === undefined) fail(`Unknown command ${req.command}: view, create, str_replace or insert.`);
try {
  process.stdout.write(command(req));
} catch (error) {
  fail(String(error && error.message));
}
