/**
 * Fence-tag aliases: the tags models write after ``` mapped to Crucible language ids (the names of
 * `languages/*.yaml`). Matching is case-insensitive; a tag not listed maps to itself, lowercased.
 */
const ALIASES: Readonly<Record<string, string>> = {
  py: 'python', python: 'python', python3: 'python', py3: 'python', pypy: 'python', pypy3: 'python',
  cpp: 'cpp', cpp11: 'cpp', 'cpp-humaneval-x': 'cpp', 'c++': 'cpp', cxx: 'cpp', cc: 'cpp', hpp: 'cpp', 'c++17': 'cpp', 'c++20': 'cpp', cpp17: 'cpp', cpp20: 'cpp',
  c: 'c', h: 'c',
  js: 'javascript', javascript: 'javascript', node: 'javascript', nodejs: 'javascript', mjs: 'javascript',
  ts: 'typescript', typescript: 'typescript',
  java: 'java',
  go: 'go', golang: 'go',
  rs: 'rust', rust: 'rust',
  rb: 'ruby', ruby: 'ruby',
  cs: 'csharp', csharp: 'csharp', 'c#': 'csharp',
  kt: 'kotlin', kotlin: 'kotlin',
  sh: 'bash', bash: 'bash', shell: 'bash', zsh: 'bash',
  hs: 'haskell', haskell: 'haskell',
  diff: 'diff', patch: 'diff', udiff: 'diff',
  php: 'php', swift: 'swift', scala: 'scala', lua: 'lua', r: 'r', julia: 'julia', jl: 'julia', pl: 'perl', perl: 'perl',
};

/** Canonical language id of a fence tag or a requested language (`"Py3"` -> `"python"`). */
export function canonicalLanguage(tag: string): string {
  const t = tag.trim().toLowerCase();
  return ALIASES[t] ?? t;
}
