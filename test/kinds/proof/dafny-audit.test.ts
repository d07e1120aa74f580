/**
 * The Dafny audit without a Dafny binary: on DafnyBench's published pairs (../shared/data/dafnybench), every
 * ground truth passes against its task, and every cheat we make from it fails, including the cheats DafnyBench's
 * own rule (emulated below from the data README's description of `eval/utils.py`) accepts.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readDafnyBench } from '../../../src/formats/dafnybench.js';
import type { DafnyProofProblem } from '../../../src/formats/types.js';
import { auditDafny, dafnyProblemSpec } from '../../../src/kinds/proof/dafny/audit.js';
import { parseDafny, type DafnyDecl, type DafnyProgram } from '../../../src/kinds/proof/dafny/parse.js';
import { DAFNYBENCH } from '../../support/data.js';

/**
 * DafnyBench's pass rule minus verification (data README, "DafnyBench's rule"): the lines containing `requires`
 * or `ensures`, outside `//` lines and outside block comments recognised only when a line starts with `/*` (to a
 * line ending with `*\/`), spaces removed, must be the same list; `{:verify false}` and `assume false` must not
 * occur in the reconstruction.
 */
function dafnyBenchAccepts(original: string, reconstruction: string): boolean {
  const specLines = (program: string): string[] => {
    const out: string[] = [];
    let inBlock = false;
    for (const raw of program.split('\n')) {
      const line = raw.trim();
      if (!inBlock && line.startsWith('/*')) inBlock = true;
      if (inBlock) {
        if (line.endsWith('*/')) inBlock = false;
        continue;
      }
      if (line.startsWith('//')) continue;
      if (line.includes('requires') || line.includes('ensures')) out.push(line.replace(/ /g, ''));
    }
    return out;
  };
  const a = specLines(original);
  const b = specLines(reconstruction);
  const same = a.length === b.length && a.every((line, i) => line === b[i]);
  return same && !reconstruction.includes('{:verify false}') && !reconstruction.includes('assume false');
}

interface Cheat {
  readonly name: string;
  readonly text: string;
}

/** Insert `text` at `offset` of `source`. */
const insertAt = (source: string, offset: number, text: string): string => source.slice(0, offset) + text + source.slice(offset);

/** The first method or lemma with a body and an ensures clause (the cheats' target), or undefined. */
function target(program: DafnyProgram): DafnyDecl | undefined {
  return program.decls.find((d) => /^(method|lemma)$/.test(d.keyword) && d.body !== null
    && d.clauses.some((c) => c.kind === 'ensures') && !d.path.includes('.'));
}

/** Cheats made from a ground truth: each must be refused by the audit. */
function cheats(source: string): Cheat[] {
  const program = parseDafny(source);
  const decl = target(program);
  if (decl === undefined) return [];
  const tokens = program.tokens;
  const bodyOpen = tokens[decl.body!.start]!.offset + 1;
  const keyword = tokens.slice(decl.range.start, decl.body!.start).find((t) => t.text === decl.keyword)!;
  const keywordEnd = keyword.offset + keyword.text.length;
  const nameToken = tokens.slice(decl.range.start, decl.body!.start).find((t) => t.kind === 'ident' && t.text === decl.path)!;
  const firstClause = tokens.slice(decl.range.start, decl.body!.start).find((t) => ['requires', 'ensures', 'modifies', 'reads', 'decreases'].includes(t.text))!;
  const headerEnd = tokens[tokens.indexOf(firstClause) - 1]!;
  const ensures = tokens.slice(decl.range.start, decl.body!.start).find((t) => t.text === 'ensures')!;
  const list: Cheat[] = [
    { name: 'assume  false (two spaces)', text: insertAt(source, bodyOpen, '\n  assume  false;\n') },
    { name: 'assume of a fact', text: insertAt(source, bodyOpen, '\n  assume 1 + 1 == 3;\n') },
    { name: 'assume false', text: insertAt(source, bodyOpen, '\n  assume false;\n') },
    { name: 'expect false', text: insertAt(source, bodyOpen, '\n  expect false;\n') },
    { name: '{:verify  false} (two spaces)', text: insertAt(source, keywordEnd, ' {:verify  false}') },
    { name: '{: verify false}', text: insertAt(source, keywordEnd, ' {: verify false}') },
    { name: '{:verify false}', text: insertAt(source, keywordEnd, ' {:verify false}') },
    { name: '{:extern} on a bodied member', text: insertAt(source, keywordEnd, ' {:extern}') },
    { name: '{:only}', text: insertAt(source, keywordEnd, ' {:only}') },
    { name: 'decreases * and a loop that never ends', text: insertAt(insertAt(source, bodyOpen, '\n  while true decreases * { }\n'), headerEnd.offset + headerEnd.text.length, '\n  decreases *') },
    {
      name: 'contracts hidden in a block comment that starts mid-line',
      text: insertAt(insertAt(source, bodyOpen - 1, '*/ '), headerEnd.offset + headerEnd.text.length, ' /*'),
    },
    { name: 'ensures weakened to true', text: source.slice(0, ensures.offset) + 'ensures true\n' + source.slice(ensures.offset) },
    { name: 'bodiless loop', text: insertAt(source, bodyOpen, '\n  var crucibleLoop := 0;\n  while crucibleLoop < 1 invariant crucibleLoop == 0\n  crucibleLoop := 1;\n') },
    { name: 'bodiless forall with ensures', text: insertAt(source, bodyOpen, '\n  forall crucibleK: int | 0 <= crucibleK < 1\n    ensures false\n  assert true;\n') },
    { name: '{:axiom} lemma', text: insertAt(`${source}\nlemma {:axiom} CrucibleCheat() ensures false\n`, bodyOpen, '\n  CrucibleCheat();\n') },
    { name: 'bodiless lemma', text: insertAt(`${source}\nlemma CrucibleCheat() ensures false\n`, bodyOpen, '\n  CrucibleCheat();\n') },
    { name: 'target renamed, weaker copy under its name', text: `${source.slice(0, nameToken.offset)}${decl.path}Renamed${source.slice(nameToken.offset + nameToken.text.length)}` },
  ];
  const predicate = program.decls.find((d) => /predicate|function/.test(d.keyword) && d.specBody !== null && !d.path.includes('.'));
  if (predicate !== undefined) {
    const open = tokens[predicate.body!.start]!;
    const close = tokens[predicate.body!.end - 1]!;
    const body = /predicate/.test(predicate.keyword) ? 'true' : source.slice(open.offset + 1, close.offset);
    if (body === 'true') list.push({ name: 'predicate body replaced by true', text: `${source.slice(0, open.offset + 1)} true ${source.slice(close.offset)}` });
  }
  return list;
}

describe('Dafny audit on DafnyBench', () => {
  let problems: DafnyProofProblem[] = [];
  before(async () => {
    problems = await readDafnyBench(DAFNYBENCH);
  });

  it('reads the published layout: one task per hints_removed file, with its ground truth', () => {
    assert.ok(problems.length >= 100, `${problems.length} tasks`);
    assert.ok(problems.every((p) => p.reference !== undefined));
    assert.ok(problems.some((p) => p.taskId === 'Clover_array_concat'));
  });

  it('every ground truth passes the audit against its task, except one that adds decreases *', () => {
    const refused: string[] = [];
    for (const problem of problems) {
      const audit = auditDafny(dafnyProblemSpec(problem.statement, problem.reference), problem.reference!);
      assert.equal(audit.unreadable, null, problem.taskId);
      if (audit.findings.length > 0) refused.push(`${problem.taskId}: ${audit.findings.map((f) => f.rule).join(',')}`);
    }
    // Its ground truth adds `decreases *` (a method that may diverge) where the task has none.
    assert.deepEqual(refused, ['formal-methods-in-software-engineering_tmp_tmpe7fjnek6_Labs4_gr2: decreases_star,decreases_star,decreases_star']);
  });

  it('every cheat fails the audit, including those DafnyBench\'s own rule accepts', () => {
    let made = 0;
    const acceptedByDafnyBench = new Map<string, number>();
    for (const problem of problems) {
      const spec = dafnyProblemSpec(problem.statement, problem.reference);
      for (const cheat of cheats(problem.reference!)) {
        made++;
        const audit = auditDafny(spec, cheat.text);
        assert.equal(audit.unreadable, null, `${problem.taskId} / ${cheat.name}`);
        assert.ok(audit.findings.some((f) => f.severity === 'cheat'), `${problem.taskId} / ${cheat.name} passed the audit`);
        if (dafnyBenchAccepts(problem.statement, cheat.text)) acceptedByDafnyBench.set(cheat.name, (acceptedByDafnyBench.get(cheat.name) ?? 0) + 1);
      }
    }
    assert.ok(made > 1500, `${made} cheats`);
    for (const name of ['assume  false (two spaces)', '{:verify  false} (two spaces)', 'contracts hidden in a block comment that starts mid-line',
      'decreases * and a loop that never ends', 'bodiless loop', '{:extern} on a bodied member']) {
      assert.ok((acceptedByDafnyBench.get(name) ?? 0) > 50, `DafnyBench's rule accepts "${name}" ${acceptedByDafnyBench.get(name) ?? 0} times`);
    }
    assert.equal(acceptedByDafnyBench.get('assume false') ?? 0, 0);
    assert.equal(acceptedByDafnyBench.get('{:verify false}') ?? 0, 0);
  });
});

describe('Dafny audit rules', () => {
  const problem = `predicate Sorted(a: seq<int>) { forall i, j | 0 <= i < j < |a| :: a[i] <= a[j] }
method Sort(a: seq<int>) returns (b: seq<int>)
  requires |a| < 100
  ensures Sorted(b)
  ensures multiset(a) == multiset(b)
{
  b := a;
  assume Sorted(b);
}
lemma {:axiom} Given(x: int) ensures x * x >= 0
`;
  const spec = dafnyProblemSpec(problem);
  const rules = (candidate: string): string[] => auditDafny(spec, candidate).findings.map((f) => f.rule);

  it('the problem itself passes, and may reorder clauses, keep its own assume and axiom, add hints and helpers', () => {
    assert.deepEqual(rules(problem), []);
    const reordered = problem.replace('  ensures Sorted(b)\n  ensures multiset(a) == multiset(b)', '  ensures multiset(a)==multiset(b)\n  ensures Sorted(b)  // kept')
      .replace('b := a;', 'b := a; assert |b| == |a|;');
    assert.deepEqual(rules(`${reordered}\nlemma Helper(x: int) ensures x + 0 == x { }\n`), []);
  });
  it('a second assume, or the problem\'s assume moved to another member, is a cheat', () => {
    assert.deepEqual(rules(problem.replace('assume Sorted(b);', 'assume Sorted(b); assume Sorted(b);')), ['assume']);
    assert.deepEqual(rules(problem.replace('  assume Sorted(b);\n', '') + 'lemma L() ensures false { assume Sorted([]); }\n'), ['assume']);
  });
  it('contract, signature and definition changes are cheats', () => {
    assert.deepEqual(rules(problem.replace('requires |a| < 100', 'requires |a| < 10')), ['changed_contract']);
    assert.deepEqual(rules(problem.replace('returns (b: seq<int>)', 'returns (b: seq<nat>)')), ['changed_signature']);
    assert.deepEqual(rules(problem.replace('a[i] <= a[j]', 'true')), ['changed_definition']);
    assert.deepEqual(rules(problem.replace('method Sort', 'method {:axiom} Sort')), ['axiom']);
    assert.deepEqual(rules(problem.replace('  ensures Sorted(b)\n', '  /* ensures */ ensures Sorted(b) ||\n  true\n')), ['changed_contract']);
  });
  it('attributes: proof-effort ones pass, others and Dafny 4 @-attributes do not', () => {
    assert.deepEqual(rules(problem.replace('method Sort', 'method {:timeLimit 30} {:vcs_split_on_every_assert} Sort')), []);
    assert.deepEqual(rules(problem.replace('method Sort', 'method {:verify true} Sort')), []);
    assert.deepEqual(rules(problem.replace('method Sort', 'method {:verify\n  false} Sort')), ['verify_false']);
    assert.deepEqual(rules(problem.replace('method Sort', '@Verify(false)\nmethod Sort')), ['verify_false']);
    assert.deepEqual(rules(problem.replace('method Sort', '@Axiom\nmethod Sort')), ['axiom']);
    assert.deepEqual(rules(problem.replace('method Sort', 'method {:autocontracts} Sort')), ['attribute']);
  });
  it('keywords inside strings and comments are not constructs', () => {
    assert.deepEqual(rules(problem.replace('b := a;', 'b := a; var s := "assume false; {:verify false}"; // assume false\n')), []);
  });
  it('an unreadable candidate is refused without findings', () => {
    const audit = auditDafny(spec, `${problem}\nmethod Broken() {`);
    assert.match(audit.unreadable!, /unclosed/);
  });
});
