/**
 * HumanEval-X problems -> `ScriptProblem`.
 *
 * Source format: THUDM/CodeGeeX `codegeex/benchmark/humaneval-x/<lang>/data/humaneval_<lang>.jsonl.gz`: one JSON
 * object per line with `task_id` (`CPP/0`, `Go/0`, `Java/0`, `JavaScript/0`, `Python/0`, `Rust/0`), `prompt`,
 * `declaration`, `canonical_solution`, `test`, `example_test`; Go adds `import` (the prompt's import block) and
 * `test_setup` (package clause + the tests' imports). The language comes from the `task_id` prefix. The program
 * is `prompt + generation + test` (CodeGeeX `evaluate_humaneval_x.py`, `process_humaneval_test`); for Go the
 * prompt's import block is removed and `test_setup` goes first, as there. Extra fields are ignored.
 * Judged by CodeGeeX's own rules (`codegeex/benchmark/execution.py`): C++ in the `cpp11` language (`g++ -std=c++11`
 * without optimisation, `-lcrypto -lssl`, Boost headers); a JavaScript program fails when it wrote anything to
 * stderr or to stdout (CodeGeeX fails a `node test.js` run with any output; here the trusted end-of-tests marker
 * line is the one line allowed).
 * Python problems become `unit_test` problems (the entry point is the name in the test's last line,
 * `check(<name>)`, which the `unit_test` mode calls itself): the Python judge harness then stops what a
 * same-process script cannot (an object whose `__eq__` is always true; docs/SECURITY.md "Unforgeable pass").
 * Rust: `rust-test` (a `cargo test`-equivalent harness with the crates rand, regex and md5); the program is
 * `"\nfn main(){ \n } \n" + declaration + prompt + generation + test`, as CodeGeeX assembles it.
 * Errors: `DatasetError` (file, line, field).
 */
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { readJsonl } from './jsonl.js';
import type { ScriptProblem, UnitTestProblem } from './types.js';

export const HumanEvalXRecordSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  declaration: z.string(),
  canonical_solution: z.string().optional(),
  test: z.string(),
  example_test: z.string().nullable().optional(),
  import: z.string().optional(),
  test_setup: z.string().optional(),
});

/** HumanEval-X `task_id` prefix -> Crucible language id (null: refused, with why). */
const LANGUAGE_OF_PREFIX: Readonly<Record<string, string | { readonly refused: string }>> = {
  CPP: 'cpp11',
  Go: 'go',
  Java: 'java',
  JavaScript: 'javascript',
  Python: 'python',
  Rust: 'rust-test',
};

/** What CodeGeeX puts before a Rust program's declaration (`evaluate_humaneval_x.py`). */
const RUST_MAIN = '\nfn main(){ \n } \n';

/** The test's final `check(<entry point>)` call of a HumanEval-X Python problem. */
const PYTHON_CHECK_CALL = /\ncheck\((\w+)\)\s*$/;

/**
 * Read a HumanEval-X JSONL(.gz) file (one language per file): `script` problems, `unit_test` for Python.
 * Duplicate `task_id`s are an error.
 */
export async function readHumanEvalX(path: string): Promise<(ScriptProblem | UnitTestProblem)[]> {
  const out: (ScriptProblem | UnitTestProblem)[] = [];
  const seen = new Set<string>();
  for await (const { line, value: r } of readJsonl(path, HumanEvalXRecordSchema)) {
    if (seen.has(r.task_id)) throw new DatasetError(path, line, 'task_id', `duplicate task_id "${r.task_id}"`);
    seen.add(r.task_id);
    const prefix = r.task_id.split('/')[0]!;
    const language = LANGUAGE_OF_PREFIX[prefix];
    if (language === undefined) {
      throw new DatasetError(path, line, 'task_id', `unknown HumanEval-X language prefix "${prefix}" (known: ${Object.keys(LANGUAGE_OF_PREFIX).join(', ')})`);
    }
    if (typeof language !== 'string') throw new DatasetError(path, line, 'task_id', `${prefix} is not supported: ${language.refused}`);
    if (language === 'python') {
      const call = PYTHON_CHECK_CALL.exec(r.test);
      if (call === null) throw new DatasetError(path, line, 'test', 'a Python test must end with check(<entry point>)');
      out.push({ kind: 'unit_test', taskId: r.task_id, language: 'python', prompt: r.prompt, entryPoint: call[1]!,
        test: r.test.slice(0, call.index + 1),
        ...(r.canonical_solution === undefined ? {} : { canonicalSolution: r.canonical_solution }) });
      continue;
    }
    if (language === 'go' && r.test_setup === undefined) throw new DatasetError(path, line, 'test_setup', 'Go problems need "test_setup"');
    const prompt = language === 'go' && r.import !== undefined ? r.prompt.replace(r.import, '')
      // CodeGeeX `process_humaneval_test`: an empty `main`, the declaration (imports and signature), then the prompt.
      : language === 'rust-test' ? `${RUST_MAIN}${r.declaration}${r.prompt}` : r.prompt;
    out.push({
      kind: 'script', taskId: r.task_id, language, prompt, test: r.test,
      ...(language === 'javascript' ? { stderrFails: true, stdoutFails: true } : {}),
      ...(language === 'go' ? { setup: `${r.test_setup}\n` } : {}),
      ...(r.canonical_solution === undefined ? {} : { canonicalSolution: r.canonical_solution }),
    });
  }
  return out;
}
