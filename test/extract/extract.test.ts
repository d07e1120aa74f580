import assert from 'node:assert/strict';
import { test } from 'node:test';
import { END_TOKENS, extractCode, looksLikeCode, stripEndTokens, stripThink } from '../../src/extract/index.js';
import { LanguageRegistry } from '../../src/languages/registry.js';

const languages = LanguageRegistry.load();
/** The fence tags of a configured language, by any of its names (as `prepareSubmission` passes them). */
const tagsOf = (name: string): ReadonlySet<string> => languages.fenceTags(languages.get(name));

const fence = (tag: string, code: string): string => '```' + tag + '\n' + code + '\n```';

test('think sections: closed, several, unterminated at start, unopened', () => {
  assert.deepEqual(stripThink('<think>a</think>B<THINK>c</THINK>D'), { text: 'BD', removed: 2 });
  assert.deepEqual(stripThink('  <think>still thinking about ```python x```'), { text: '', removed: 1 });
  assert.deepEqual(stripThink('reasoning...</think>\nanswer'), { text: '\nanswer', removed: 1 });
  assert.deepEqual(stripThink('prose mentions <think> tag'), { text: 'prose mentions <think> tag', removed: 0 });
  const r = extractCode(`<think>\n${fence('python', 'wrong = 1')}\n</think>\nFinal:\n${fence('python', 'right = 2')}`, { pick: 'first' });
  assert.equal(r.kind, 'fenced');
  assert.equal(r.kind === 'fenced' && r.code, 'right = 2');
  assert.equal(r.thinkSectionsRemoved, 1);
  assert.deepEqual(extractCode('<think>out of tokens'), { kind: 'no_code', reason: 'empty', thinkSectionsRemoved: 1 });
});

test('several fences: last by default, first on request', () => {
  const text = `First try:\n${fence('python', 'a = 1')}\nBetter:\n${fence('python', 'a = 2')}\n`;
  const last = extractCode(text);
  assert.ok(last.kind === 'fenced');
  assert.deepEqual([last.code, last.blockIndex, last.blockCount, last.tag], ['a = 2', 1, 2, 'python']);
  const first = extractCode(text, { pick: 'first' });
  assert.ok(first.kind === 'fenced' && first.code === 'a = 1');
});

test('language preference with the YAML names: matching tag, then untagged, then other code, text last', () => {
  const text = [fence('bash', 'pip install x'), fence('py3', 'print(1)'), fence('text', '1'), fence('cpp', 'int main(){}')].join('\n');
  const py = extractCode(text, { fenceTags: tagsOf('python') });
  assert.ok(py.kind === 'fenced' && py.code === 'print(1)' && py.tag === 'py3');
  const cpp = extractCode(text, { fenceTags: tagsOf('c++') });
  assert.ok(cpp.kind === 'fenced' && cpp.code === 'int main(){}');
  const js = extractCode(text, { fenceTags: tagsOf('js') });
  assert.ok(js.kind === 'fenced' && js.code === 'int main(){}', 'no js block: last other-code block, not the text one');
  const untagged = extractCode(`${fence('', 'x = 1')}\n${fence('java', 'class A {}')}`, { fenceTags: tagsOf('python') });
  assert.ok(untagged.kind === 'fenced' && untagged.code === 'x = 1');
  // Tags are matched case-insensitively, and a dialect's family name counts (cpp for cpp11, the YAML's fenceTags).
  const upper = extractCode([fence('Python3', 'print(2)'), fence('C++', 'int x;')].join('\n'), { fenceTags: tagsOf('python') });
  assert.ok(upper.kind === 'fenced' && upper.code === 'print(2)');
  const dialect = extractCode([fence('cpp', 'int main(){}'), fence('python', 'x = 1')].join('\n'), { fenceTags: tagsOf('cpp11') });
  assert.ok(dialect.kind === 'fenced' && dialect.code === 'int main(){}');
  assert.ok(tagsOf('python').has('py3') && tagsOf('cpp11').has('cpp') && !tagsOf('cpp').has('python'));
});

test('fence details: tildes, longer fences containing ```, truncated block, empty blocks skipped', () => {
  const nested = '````markdown\n```python\nx\n```\n````\n~~~python\nreal = 1\n~~~';
  const r = extractCode(nested, { fenceTags: tagsOf('python') });
  assert.ok(r.kind === 'fenced' && r.code === 'real = 1');
  const truncated = extractCode('Here:\n```python\ndef f():\n    return 1');
  assert.ok(truncated.kind === 'fenced' && !truncated.terminated && truncated.code === 'def f():\n    return 1');
  const empty = extractCode(`${fence('python', 'x = 1')}\n${fence('python', '   ')}`);
  assert.ok(empty.kind === 'fenced' && empty.code === 'x = 1');
});

test('a closing fence followed by an end token or text on its line still closes the block (OpenRLHF keeps end tokens)', () => {
  const code = 'a, b = map(int, input().split())\nprint(a + b)';
  for (const tail of ['<|im_end|>', '</s>', '<|endoftext|>', '<|eot_id|>', '<|end|>', ' <|im_end|>\n', ' Hope this helps!', '\t']) {
    const r = extractCode(`Sure:\n\`\`\`python\n${code}\n\`\`\`${tail}`);
    assert.ok(r.kind === 'fenced', tail);
    assert.equal(r.code, code, JSON.stringify(tail));
    assert.equal(r.terminated, true, JSON.stringify(tail));
  }
  // Two blocks, the first closed by a fence with an end token right after: both are found, the last is taken.
  const two = extractCode('```python\nx = 1\n```</s>\nBetter:\n```python\nx = 2\n```<|im_end|>');
  assert.ok(two.kind === 'fenced' && two.code === 'x = 2' && two.blockCount === 2);
  // A fence directly followed by a word is an info string, never a close: it stays content of the open block.
  const inner = extractCode('````markdown\n```python\nx\n```\n````<|im_end|>', { fenceTags: new Set(['markdown']) });
  assert.ok(inner.kind === 'fenced' && inner.code === '```python\nx\n```');
});

test('no fences: code-looking text is taken whole, prose is no_code', () => {
  const code = 'import sys\n\ndef main():\n    n = int(sys.stdin.readline())\n    print(n * 2)\n\nmain()\n';
  assert.deepEqual(extractCode(code), { kind: 'unfenced', code, thinkSectionsRemoved: 0 });
  assert.ok(looksLikeCode('#include <cstdio>\nint main() {\n  puts("hi");\n}\n'));
  const prose = 'I am sorry, but I cannot help with that request.\nPlease ask something else.';
  assert.deepEqual(extractCode(prose), { kind: 'no_code', reason: 'prose', thinkSectionsRemoved: 0 });
  assert.deepEqual(extractCode('   \n'), { kind: 'no_code', reason: 'empty', thinkSectionsRemoved: 0 });
  const mostlyProse = 'The solution uses a loop.\nWe iterate over the list and sum the values.\nThis runs in linear time.\nx = 1\n';
  assert.equal(extractCode(mostlyProse).kind, 'no_code');
});

test('an unfenced answer loses the end tokens that end it, and only those', () => {
  const code = 'def f(x):\n    return x + 1\n';
  for (const end of END_TOKENS) {
    const r = extractCode(`${code}${end}`);
    assert.ok(r.kind === 'unfenced', end);
    assert.equal(r.code, code, end);
    const glued = extractCode(`${code.trimEnd()}${end}`);
    assert.ok(glued.kind === 'unfenced' && glued.code === code.trimEnd(), end);
  }
  // A run of them with whitespace between (end-of-turn, then padding), and nothing else touched.
  assert.deepEqual(stripEndTokens('x = 1\n<|im_end|>\n<|endoftext|><|endoftext|>\n'), { text: 'x = 1\n', removed: 3 });
  assert.deepEqual(stripEndTokens('s = "</s>"\nprint(s)'), { text: 's = "</s>"\nprint(s)', removed: 0 });
  assert.deepEqual(stripEndTokens('<|im_end|>'), { text: '', removed: 1 });
  assert.deepEqual(extractCode('<|im_end|>'), { kind: 'no_code', reason: 'empty', thinkSectionsRemoved: 0 });
  // After a think section too.
  const r = extractCode(`<think>plan</think>\n${code}<|eot_id|>`);
  assert.ok(r.kind === 'unfenced' && r.code === `\n${code}`);
});
