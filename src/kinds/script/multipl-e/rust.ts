/**
 * Rust (MultiPL-E `humaneval_to_rs.py`): the prompt is the signature `fn f(...) -> T {` (after `use
 * std::collections::HashMap;` where a type needs it); the tests are `}` (closing the candidate's function), then
 * `fn main() { let candidate = f; assert_eq!(candidate(...), <expected>); ... }`, one case per `assert_eq!`.
 *
 * `assert_eq!` compares with `PartialEq` on the function's own return type (`isize`, `f64` exactly, `bool`,
 * `String`, `Vec<T>`, `Option<T>`, tuples, `HashMap<K, V>` without order), which the value conventions mirror:
 * integers and floats as JSON numbers (an `f64` never equals an `isize` in Rust, and the two never meet: both
 * sides have the function's type), `None` as null, `Some(v)` as `v` (Rust has no `Option<Option<T>>` here),
 * tuples and vectors as arrays, a `HashMap` as `$map`.
 *
 * The expected program must give each literal the type Rust infers for it in `assert_eq!` (`vec![]` of what?
 * `1` as `isize` or `u8`?). It keeps the prompt's signature with the body `unimplemented!()` — trusted prompt
 * text, no candidate code — and binds `let mut e = <expected>; if false { e = candidate(...); }`: the never-run
 * assignment makes `e` the function's return type, as the comparison did.
 */
import { VALUE_TAG } from '../values.js';
import { splitTopLevel, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';
import { assertionStatements } from './assertion-statements.js';

/** The translator emits strings only as `String::from("...")` (no character literals, no lifetimes). */
const RUST_SYNTAX: SourceSyntax = { quotes: ['"'], lineComment: '//' };

/** Rust source: `crucible_value_line(i, &v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const RUST_SERIALIZER = String.raw`
trait CrucibleValue { fn crucible_json(&self, out: &mut ::std::string::String); }
macro_rules! crucible_value_integers { ($($t:ty),*) => { $(
  impl CrucibleValue for $t { fn crucible_json(&self, out: &mut ::std::string::String) { out.push_str(&self.to_string()); } }
)* } }
crucible_value_integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
impl CrucibleValue for f64 {
  fn crucible_json(&self, out: &mut ::std::string::String) {
    if self.is_nan() { out.push_str("{\"$float\":\"nan\"}"); }
    else if self.is_infinite() { out.push_str(if *self > 0.0 { "{\"$float\":\"inf\"}" } else { "{\"$float\":\"-inf\"}" }); }
    else {
      let s = format!("{:?}", self);
      out.push_str(&s);
      if !s.contains(|c: char| c == '.' || c == 'e' || c == 'E') { out.push_str(".0"); }
    }
  }
}
impl CrucibleValue for f32 { fn crucible_json(&self, out: &mut ::std::string::String) { (*self as f64).crucible_json(out); } }
impl CrucibleValue for bool { fn crucible_json(&self, out: &mut ::std::string::String) { out.push_str(if *self { "true" } else { "false" }); } }
impl CrucibleValue for str {
  fn crucible_json(&self, out: &mut ::std::string::String) {
    out.push('"');
    for c in self.chars() {
      match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push(c),
      }
    }
    out.push('"');
  }
}
impl CrucibleValue for ::std::string::String { fn crucible_json(&self, out: &mut ::std::string::String) { self.as_str().crucible_json(out); } }
impl CrucibleValue for char { fn crucible_json(&self, out: &mut ::std::string::String) { self.to_string().crucible_json(out); } }
impl CrucibleValue for () { fn crucible_json(&self, out: &mut ::std::string::String) { out.push_str("null"); } }
impl<T: CrucibleValue + ?Sized> CrucibleValue for &T { fn crucible_json(&self, out: &mut ::std::string::String) { (**self).crucible_json(out); } }
impl<T: CrucibleValue + ?Sized> CrucibleValue for ::std::boxed::Box<T> { fn crucible_json(&self, out: &mut ::std::string::String) { (**self).crucible_json(out); } }
impl<T: CrucibleValue> CrucibleValue for ::std::option::Option<T> {
  fn crucible_json(&self, out: &mut ::std::string::String) {
    match self { ::std::option::Option::Some(v) => v.crucible_json(out), ::std::option::Option::None => out.push_str("null") }
  }
}
fn crucible_json_items<'a, T: CrucibleValue + 'a>(items: impl ::std::iter::Iterator<Item = &'a T>, out: &mut ::std::string::String) {
  out.push('[');
  for (i, v) in items.enumerate() { if i > 0 { out.push(','); } v.crucible_json(out); }
  out.push(']');
}
impl<T: CrucibleValue> CrucibleValue for [T] { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_items(self.iter(), out); } }
impl<T: CrucibleValue, const N: usize> CrucibleValue for [T; N] { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_items(self.iter(), out); } }
impl<T: CrucibleValue> CrucibleValue for ::std::vec::Vec<T> { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_items(self.iter(), out); } }
impl<T: CrucibleValue> CrucibleValue for ::std::collections::VecDeque<T> { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_items(self.iter(), out); } }
fn crucible_json_set<'a, T: CrucibleValue + 'a>(items: impl ::std::iter::Iterator<Item = &'a T>, out: &mut ::std::string::String) {
  out.push_str("{\"$set\":");
  crucible_json_items(items, out);
  out.push('}');
}
impl<T: CrucibleValue> CrucibleValue for ::std::collections::HashSet<T> { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_set(self.iter(), out); } }
impl<T: CrucibleValue> CrucibleValue for ::std::collections::BTreeSet<T> { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_set(self.iter(), out); } }
fn crucible_json_map<'a, K: CrucibleValue + 'a, V: CrucibleValue + 'a>(items: impl ::std::iter::Iterator<Item = (&'a K, &'a V)>, out: &mut ::std::string::String) {
  out.push_str("{\"$map\":[");
  for (i, (k, v)) in items.enumerate() {
    if i > 0 { out.push(','); }
    out.push('[');
    k.crucible_json(out);
    out.push(',');
    v.crucible_json(out);
    out.push(']');
  }
  out.push_str("]}");
}
impl<K: CrucibleValue, V: CrucibleValue> CrucibleValue for ::std::collections::HashMap<K, V> { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_map(self.iter(), out); } }
impl<K: CrucibleValue, V: CrucibleValue> CrucibleValue for ::std::collections::BTreeMap<K, V> { fn crucible_json(&self, out: &mut ::std::string::String) { crucible_json_map(self.iter(), out); } }
macro_rules! crucible_value_tuples { ($(($($t:ident $i:tt),+)),*) => { $(
  impl<$($t: CrucibleValue),+> CrucibleValue for ($($t,)+) {
    fn crucible_json(&self, out: &mut ::std::string::String) {
      out.push('[');
      $( if $i > 0 { out.push(','); } self.$i.crucible_json(out); )+
      out.push(']');
    }
  }
)* } }
crucible_value_tuples!((A 0), (A 0, B 1), (A 0, B 1, C 2), (A 0, B 1, C 2, D 3), (A 0, B 1, C 2, D 3, E 4), (A 0, B 1, C 2, D 3, E 4, F 5));
fn crucible_value_line<T: CrucibleValue + ?Sized>(i: usize, v: &T) {
  use ::std::io::Write;
  let mut line = ::std::string::String::new();
  v.crucible_json(&mut line);
  let stdout = ::std::io::stdout();
  let mut out = stdout.lock();
  let _ = ::std::write!(out, "\n${VALUE_TAG} {} {}\n", i, line);
  let _ = out.flush();
}
`;

/** `fn main() {` with `let candidate = <name>;` first: group 1 is the text before it, group 2 the binding, group 3 the rest. */
const MAIN = /^([\s\S]*?)\bfn\s+main\s*\(\s*\)\s*\{\s*(let\s+candidate\s*=\s*\w+\s*;)([\s\S]*)\}\s*$/;

/** The prelude's two parts (the text before `main`, the binding) are joined with this (never in Rust source). */
const PARTS = '\u0000';

/** MultiPL-E Rust split (see the module comment). */
export const RUST_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const m = MAIN.exec(test);
    const asserts = m === null ? undefined : assertionStatements(m[3]!, 'assert_eq!', RUST_SYNTAX);
    const cases = asserts?.map((text) => splitTopLevel(text, ',', RUST_SYNTAX).filter((part) => part !== ''));
    if (m === null || cases === undefined || cases.some((args) => args.length !== 2)) return undefined;
    return { prelude: `${m[1]!}${PARTS}${m[2]!}`, cases: cases.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
  },
  candidateProgram: ({ program, tests }) => {
    const [before, binding] = tests.prelude.split(PARTS) as [string, string];
    return [
      program, before, RUST_SERIALIZER, 'fn main() {', `    ${binding}`,
      ...tests.cases.map((c, i) => `    crucible_value_line(${i}, &(${c.actual}));`), '}', '',
    ].join('\n');
  },
  expectedProgram: ({ prompt, tests }) => {
    const [before, binding] = tests.prelude.split(PARTS) as [string, string];
    return [
      '#![allow(warnings)]', prompt, '    unimplemented!()', before, RUST_SERIALIZER, 'fn main() {', `    ${binding}`,
      ...tests.cases.map((c, i) => `    { let mut e = ${c.expected}; if false { e = ${c.actual}; } crucible_value_line(${i}, &e); }`),
      '}', '',
    ].join('\n');
  },
};
