/** The Dafny tokenizer and declaration parser on hand cases: where code ends and comments or literals begin. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DafnyLexError, lexDafny } from '../../../src/kinds/proof/dafny/lexer.js';
import { DafnyParseError, parseDafny } from '../../../src/kinds/proof/dafny/parse.js';

const texts = (source: string): string[] => lexDafny(source).map((t) => t.text);

describe('Dafny lexer', () => {
  it('nested block comments hide everything inside, mid-line or not', () => {
    assert.deepEqual(texts('a /* x /* assume false; */ ensures y */ b'), ['a', 'b']);
    assert.deepEqual(texts('method M() /*\n  ensures r > 0 */\n{ }'), ['method', 'M', '(', ')', '{', '}']);
    assert.throws(() => lexDafny('a /* /* */ b'), DafnyLexError);
  });
  it('line comments end at the line feed, and a // inside a block comment does not matter', () => {
    assert.deepEqual(texts('a // assume false;\nb /* // */ c'), ['a', 'b', 'c']);
  });
  it('strings and characters hold comment openers and keywords as data', () => {
    const tokens = lexDafny('x := "assume false /* not a comment"; c := \'"\'; d := \'\\\'\'; e := @"say ""hi""\n// still string"; f');
    assert.deepEqual(tokens.map((t) => t.kind), ['ident', 'punct', 'string', 'punct', 'ident', 'punct', 'char', 'punct', 'ident', 'punct',
      'char', 'punct', 'ident', 'punct', 'string', 'punct', 'ident']);
    assert.equal(tokens.at(-1)!.line, 2);
    assert.throws(() => lexDafny('x := "unterminated\n";'), DafnyLexError);
  });
  it("identifiers may hold and start with a tick: 'a' is a character, 'a'b and x' are identifiers", () => {
    assert.deepEqual(lexDafny("'a' 'a'b x' ''").map((t) => `${t.kind}:${t.text}`), ["char:'a'", "ident:'a'b", "ident:x'", "ident:''"]);
    assert.deepEqual(lexDafny("'\\u0041' '\\n' ' '").map((t) => t.kind), ['char', 'char', 'char']);
  });
  it('{: is one token however the attribute is spaced; !in is one token', () => {
    assert.deepEqual(texts('{:verify  false} {:  verify\nfalse} x !in s !inx'), ['{:', 'verify', 'false', '}', '{:', 'verify', 'false', '}', 'x', '!in', 's', '!', 'inx']);
  });
  it('numbers: digits with underscores, hex, decimals, and ranges', () => {
    assert.deepEqual(texts('1_000 0xFF 1.5 a[1..2]'), ['1_000', '0xFF', '1.5', 'a', '[', '1', '..', '2', ']']);
  });
});

describe('Dafny declarations', () => {
  it('reads members, clauses, attributes and bodies; set displays and lengths are not bodies', () => {
    const program = parseDafny(`module M {
  class C {
    var x: int
    method {:timeLimit 20} Foo(s: seq<int>) returns (r: int)
      requires |s| > 0
      requires forall i | 0 <= i < |s| :: s[i] in {1, 2}
      modifies this
      ensures r == |s|
    {
      r := |s|;
    }
    function Len(s: seq<int>): nat { |s| }
    lemma Bare()
      ensures true
  }
}
datatype D = A | B(n: int) { predicate IsA() { this.A? } }
`);
    const paths = program.decls.map((d) => `${d.category}:${d.path}`);
    assert.deepEqual(paths, ['container:M', 'container:M.C', 'other:M.C.x', 'callable:M.C.Foo', 'callable:M.C.Len', 'callable:M.C.Bare', 'other:D', 'callable:D.IsA']);
    const foo = program.decls[3]!;
    assert.deepEqual(foo.clauses.map((c) => `${c.kind} ${c.text}`), [
      'requires | s | > 0', 'requires forall i | 0 <= i < | s | :: s [ i ] in { 1 , 2 }', 'modifies this', 'ensures r == | s |',
    ]);
    assert.equal(foo.attributes[0]!.name, 'timeLimit');
    assert.ok(foo.body !== null);
    assert.equal(foo.signature, 'method Foo ( s : seq < int > ) returns ( r : int )');
    assert.equal(program.decls[4]!.specBody, '{ | s | }');
    assert.equal(program.decls[5]!.body, null);
  });
  it('old-style semicolons after clauses, match braces inside a clause, by-method bodies', () => {
    const program = parseDafny(`function F(x: int): int
  requires x > 0;
  ensures match x { case 0 => true case _ => F(x) > 0 };
{ x } by method { return x; }
method N() decreases * { }`);
    const f = program.decls[0]!;
    assert.deepEqual(f.clauses.map((c) => c.kind), ['requires', 'ensures']);
    assert.equal(f.specBody, '{ x }');
    assert.ok(f.byMethod !== null);
    assert.deepEqual(program.decls[1]!.clauses.map((c) => c.text), ['*']);
  });
  it('function bodies are compared without their proof hints', () => {
    const plain = parseDafny('function F(n: nat): nat { if n == 0 then 0 else var m := F(n - 1); m + 1 }');
    const hinted = parseDafny(`function F(n: nat): nat {
  if n == 0 then assert n == 0; 0 else var m := F(n - 1); Lemma(m); calc { m; == m; } assert m >= 0 by { L(); } reveal G(); m + 1 }`);
    assert.equal(hinted.decls[0]!.specBody, plain.decls[0]!.specBody);
  });
  it('an unreadable program is a DafnyParseError with a position', () => {
    assert.throws(() => parseDafny('method M() {'), (e: unknown) => e instanceof DafnyParseError && e.line === 1);
    assert.throws(() => parseDafny('x := 1;'), /expected a declaration/);
  });
});
