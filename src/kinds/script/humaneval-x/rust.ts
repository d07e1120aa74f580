/**
 * Rust replay (HumanEval-X `Rust/*`, language `rust-test`; `./replay.ts`). The prompt is CodeGeeX's empty
 * `fn main(){}`, the declaration (`use std::…; use rand::Rng; use regex::Regex; use md5;` and the entry point's
 * signature opened, `fn f(a: Vec<i32>, s: &str) -> Vec<String>{`) and a comment. The test is a
 * `#[cfg(test)] mod tests { use super::*; #[test] fn test_f() { assert_eq!(f(…), …); … } }` compiled by `rustc
 * --test` and run one test at a time in name order (`--test-threads=1`), so both boxes make their calls in the same
 * order. A few tests also call a function the prompt does not define but the canonical solution does
 * (`make_palindrome`, `encode_cyclic`, `decode_shift`): those are recorded and replayed like the entry point, with
 * the canonical solution's signature (a problem's data, not the candidate's). In one process a candidate could
 * print the end-of-tests marker itself, `std::process::exit(0)` before the tests fail, or shadow the assertions.
 *
 * Values travel as JSON written by a trait `Enc` implemented for the std types the signatures use (the same code in
 * both boxes): `bool`; every integer type as a number; `f32`/`f64` by `{:?}` (Rust's shortest text that reads back
 * to the same value), NaN and infinities as `{"$f": "nan" | "inf" | "-inf"}`; `String`/`&str` as a JSON string
 * with everything outside printable ASCII as `\uXXXX` UTF-16 escapes (surrogate pairs above U+FFFF), `char` as a
 * one-character string; `Vec`, slices and tuples as arrays; `Option` as `null` or `[v]`; `HashMap` as
 * `{"$m": [[k, v], ...]}` sorted by the encoded key (HashMap's equality ignores order; its iteration order differs
 * per process). The trusted decoder (trait `Dec`, a small JSON reader for exactly those shapes, into the declared
 * return type; `&str` results are leaked `String`s) refuses anything else, integers out of the type's range,
 * lone surrogates, repeated map keys and trailing text. `Box<dyn Any>` arguments (Rust/22), and `&dyn Any` ones
 * (Rust/137), are written as `{"$any": type, "v": value}` for the dynamic types the tests box, `{"$any": null}` for
 * others; `Dec` rebuilds the listed types as a `Box<dyn Any>` of that type and refuses the rest. A result of an enum
 * the completion must define (Rust/137's `RtnType<String,f64,i32>`, which the prompt names but does not declare) is
 * written by a `match` on the variants the test names, generated from the canonical solution's definition
 * (`{"$v": variant, "x": [payload...]}`; any other variant of the candidate's enum as `{"$v": null}`), and decoded
 * in the trusted box into the canonical solution's enum (its definition is problem data: derived `PartialEq`, tuple
 * or unit variants only), so the candidate's own `PartialEq` never judges. Signatures with other types are left to
 * the one-program judging.
 *
 * Driven calls (`./replay.ts`): the test's calls are recorded with the canonical solution (else a stub returning
 * `Default::default()`) in a trusted box; the candidate's box holds the program + `Enc`/`Dec` + a driver test
 * (`./rust-driver.ts`) that decodes each argument list with `Dec` and prints one record per call. When the test
 * calls several functions (Rust/38, 50: the prompt's and a second one the candidate defines), every argument list
 * (recorder, stub and driver alike) is led by `{"$fn": name}` and an argument that was an earlier result of the
 * other function goes to the driver as a reference to its own result (`linkResults`). A test that calls nothing
 * (Rust/32's, commented out in the dataset) gets an empty driver. A parameter type the driver cannot decode (a
 * trait object other than `dyn Any`, a nested borrow; none in HumanEval-X) keeps the older scheme, the test in the
 * candidate's box.
 *
 * The tests' `rand::thread_rng()` and `rand::random()` become a `StdRng` of the test's own with a fixed seed (one
 * stream shared by every `thread_rng()` the test makes), so the inputs are equal in both boxes and a candidate
 * drawing from `rand` does not change them; its inherent `gen_range(low, high)` is rand 0.7's, the form the tests
 * were written for (Debian's rand 0.8 takes a range, so Rust/50's test did not compile as one program). In the
 * recording box (the older scheme's candidate's box) the test's `assert!`/`assert_eq!`/`assert_ne!` only evaluate their operands (the comparison
 * stays, for type inference); the trusted box asserts on the recorded results and calls `finish` in a test named to
 * run after the dataset's tests, before the marker test (unless a test failed: the run fails anyway).
 */
import type { ScriptProblem } from '../../../formats/types.js';
import { assembleHumanEvalX } from './one-program.js';
import { CALL_TAG, REPLAY_ERROR_TAG, REPLAY_FILE, type ReplayProblem, type ReplaySplit } from './replay.js';
import { splitParameters } from './parameters.js';
import { rustDriver } from './rust-driver.js';

/** The encoder (both boxes) and the tests' random generator. */
const ENCODER = String.raw`
#[allow(dead_code, unused_imports, unused_macros)]
pub mod crucible_replay {
    use std::fmt::Write as _;

    /// The tests' generator: one fixed-seed stream for every thread_rng() / random() of the test.
    static TEST_RNG: std::sync::Mutex<Option<rand::rngs::StdRng>> = std::sync::Mutex::new(None);
    pub struct TestRng;
    fn with_rng<T>(f: impl FnOnce(&mut rand::rngs::StdRng) -> T) -> T {
        let mut g = TEST_RNG.lock().unwrap_or_else(|e| e.into_inner());
        let r = g.get_or_insert_with(|| <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(42));
        f(r)
    }
    impl rand::RngCore for TestRng {
        fn next_u32(&mut self) -> u32 { with_rng(|r| rand::RngCore::next_u32(r)) }
        fn next_u64(&mut self) -> u64 { with_rng(|r| rand::RngCore::next_u64(r)) }
        fn fill_bytes(&mut self, d: &mut [u8]) { with_rng(|r| rand::RngCore::fill_bytes(r, d)) }
        fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), rand::Error> { self.fill_bytes(d); Ok(()) }
    }
    impl TestRng {
        /// rand 0.7's two-argument gen_range (the form HumanEval-X's tests were written for; rand 0.8 takes a range).
        pub fn gen_range<T: rand::distributions::uniform::SampleUniform + PartialOrd>(&mut self, low: T, high: T) -> T {
            rand::Rng::gen_range(self, low..high)
        }
    }
    pub fn test_rng() -> TestRng { TestRng }
    pub fn test_random<T>() -> T where rand::distributions::Standard: rand::distributions::Distribution<T> {
        rand::Rng::gen(&mut TestRng)
    }

    pub trait Enc { fn enc(&self, o: &mut String); }
    macro_rules! crucible_enc_int {
        ($($t:ty),*) => { $(impl Enc for $t { fn enc(&self, o: &mut String) { let _ = write!(o, "{}", self); } })* };
    }
    crucible_enc_int!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
    impl Enc for bool { fn enc(&self, o: &mut String) { o.push_str(if *self { "true" } else { "false" }); } }
    macro_rules! crucible_enc_float {
        ($($t:ty),*) => { $(impl Enc for $t {
            fn enc(&self, o: &mut String) {
                if self.is_nan() { o.push_str("{\"$f\":\"nan\"}"); }
                else if self.is_infinite() { o.push_str(if *self > 0.0 { "{\"$f\":\"inf\"}" } else { "{\"$f\":\"-inf\"}" }); }
                else { let _ = write!(o, "{:?}", self); }
            }
        })* };
    }
    crucible_enc_float!(f32, f64);
    fn enc_str(s: &str, o: &mut String) {
        o.push('"');
        for c in s.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                ' '..='~' => o.push(c),
                _ => { let mut b = [0u16; 2]; for u in c.encode_utf16(&mut b) { let _ = write!(o, "\\u{:04x}", u); } }
            }
        }
        o.push('"');
    }
    impl Enc for str { fn enc(&self, o: &mut String) { enc_str(self, o); } }
    impl Enc for String { fn enc(&self, o: &mut String) { enc_str(self, o); } }
    impl Enc for char { fn enc(&self, o: &mut String) { let mut b = [0u8; 4]; enc_str(self.encode_utf8(&mut b), o); } }
    impl<T: Enc + ?Sized> Enc for &T { fn enc(&self, o: &mut String) { (**self).enc(o); } }
    impl<T: Enc + ?Sized> Enc for &mut T { fn enc(&self, o: &mut String) { (**self).enc(o); } }
    impl<T: Enc + ?Sized> Enc for Box<T> { fn enc(&self, o: &mut String) { (**self).enc(o); } }
    impl<T: Enc> Enc for [T] {
        fn enc(&self, o: &mut String) {
            o.push('[');
            for (i, x) in self.iter().enumerate() { if i > 0 { o.push(','); } x.enc(o); }
            o.push(']');
        }
    }
    impl<T: Enc> Enc for Vec<T> { fn enc(&self, o: &mut String) { self.as_slice().enc(o); } }
    impl<T: Enc> Enc for Option<T> {
        fn enc(&self, o: &mut String) {
            match self { None => o.push_str("null"), Some(v) => { o.push('['); v.enc(o); o.push(']'); } }
        }
    }
    impl<A: Enc, B: Enc> Enc for (A, B) {
        fn enc(&self, o: &mut String) { o.push('['); self.0.enc(o); o.push(','); self.1.enc(o); o.push(']'); }
    }
    impl<A: Enc, B: Enc, C: Enc> Enc for (A, B, C) {
        fn enc(&self, o: &mut String) {
            o.push('['); self.0.enc(o); o.push(','); self.1.enc(o); o.push(','); self.2.enc(o); o.push(']');
        }
    }
    impl<K: Enc, V: Enc, S> Enc for std::collections::HashMap<K, V, S> {
        fn enc(&self, o: &mut String) {
            let mut entries: Vec<(String, String)> = self.iter().map(|(k, v)| {
                let (mut ks, mut vs) = (String::new(), String::new());
                k.enc(&mut ks);
                v.enc(&mut vs);
                (ks, vs)
            }).collect();
            entries.sort();
            o.push_str("{\"$m\":[");
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 { o.push(','); }
                o.push('['); o.push_str(k); o.push(','); o.push_str(v); o.push(']');
            }
            o.push_str("]}");
        }
    }
    /// A Box<dyn Any> argument (Rust/22) by the dynamic types the tests box; any other as {"$any":null}.
    impl Enc for dyn std::any::Any {
        fn enc(&self, o: &mut String) {
            macro_rules! crucible_try { ($($t:ty => $tag:expr),*) => { $(if let Some(v) = self.downcast_ref::<$t>() {
                o.push_str("{\"$any\":\""); o.push_str($tag); o.push_str("\",\"v\":"); v.enc(o); o.push('}'); return;
            })* }; }
            crucible_try!(i32 => "i32", i64 => "i64", u32 => "u32", usize => "usize", f32 => "f32", f64 => "f64", bool => "bool",
                char => "char", String => "String", &'static str => "&str", Vec<Box<dyn std::any::Any>> => "Vec<Box<dyn Any>>",
                Vec<i32> => "Vec<i32>", Vec<String> => "Vec<String>");
            o.push_str("{\"$any\":null}");
        }
    }
    pub fn args(parts: &[&dyn Enc]) -> String {
        let mut o = String::from("[");
        for (i, p) in parts.iter().enumerate() { if i > 0 { o.push(','); } p.enc(&mut o); }
        o.push(']');
        o
    }
    /// The argument list of a call of \`name\` when the tests call several functions: led by {"$fn": name}.
    pub fn tagged_args(name: &str, parts: &[&dyn Enc]) -> String {
        let mut o = String::from("[{\"$fn\":");
        enc_str(name, &mut o);
        o.push('}');
        for p in parts { o.push(','); p.enc(&mut o); }
        o.push(']');
        o
    }
}
`;

/** The candidate's recorder runtime, and the assertions of the candidate's box (they decide nothing there). */
const RECORDER = String.raw`
#[allow(dead_code)]
pub mod crucible_recorder {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    pub fn record<R: crate::crucible_replay::Enc + ?Sized>(args: String, result: &R) {
        let mut text = String::new();
        result.enc(&mut text);
        record_encoded(args, &text);
    }
    pub fn record_encoded(args: String, result: &str) {
        let k = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let line = format!("\n${CALL_TAG} {} {} {}\n", k, args, result);
        let out = std::io::stdout();
        let mut lock = out.lock();
        let _ = std::io::Write::write_all(&mut lock, line.as_bytes());
        let _ = std::io::Write::flush(&mut lock);
    }
}
#[allow(unused_macros)]
macro_rules! crucible_no_assert {
    ($c:expr $(, $($rest:tt)*)?) => {{ let _ = $c; }};
}
#[allow(unused_macros)]
macro_rules! crucible_no_assert_eq {
    ($a:expr, $b:expr $(, $($rest:tt)*)?) => {{ match (&$a, &$b) { (l, r) => { let _ = *l == *r; } } }};
}
#[allow(unused_macros)]
macro_rules! crucible_no_assert_ne {
    ($a:expr, $b:expr $(, $($rest:tt)*)?) => {{ match (&$a, &$b) { (l, r) => { let _ = *l != *r; } } }};
}
`;

/** The trusted replay runtime: records from the file, arguments checked, results decoded into the declared type. */
const REPLAYER = String.raw`
#[allow(dead_code)]
pub mod crucible_replayer {
    pub fn fail(why: String) -> ! {
        eprintln!("${REPLAY_ERROR_TAG} {}", why);
        std::process::exit(3)
    }
    fn cut(s: &str) -> String {
        if s.chars().count() > 200 { s.chars().take(200).collect::<String>() + "..." } else { s.to_string() }
    }
    pub struct Reader<'a> { s: &'a str, p: usize }
    impl<'a> Reader<'a> {
        pub fn ws(&mut self) { while self.s.as_bytes().get(self.p) == Some(&b' ') { self.p += 1; } }
        pub fn peek(&mut self, c: u8) -> bool { self.ws(); self.s.as_bytes().get(self.p) == Some(&c) }
        pub fn expect(&mut self, c: u8) -> Result<(), String> {
            if self.peek(c) { self.p += 1; Ok(()) } else { Err(format!("expected '{}'", c as char)) }
        }
        fn word(&mut self, w: &str) -> bool {
            self.ws();
            if self.s[self.p..].starts_with(w) { self.p += w.len(); true } else { false }
        }
        fn number(&mut self) -> Result<&'a str, String> {
            self.ws();
            let start = self.p;
            while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.s.as_bytes().get(self.p) { self.p += 1; }
            if start == self.p { return Err("expected a number".to_string()); }
            Ok(&self.s[start..self.p])
        }
        fn hex4(&mut self) -> Result<u32, String> {
            let h = self.s.get(self.p..self.p + 4).ok_or("a short escape")?;
            if !h.bytes().all(|b| b.is_ascii_hexdigit()) { return Err("a bad escape".to_string()); }
            self.p += 4;
            Ok(u32::from_str_radix(h, 16).unwrap())
        }
        pub fn string(&mut self) -> Result<String, String> {
            self.expect(b'"')?;
            let mut out = String::new();
            loop {
                let c = self.s[self.p..].chars().next().ok_or("an unterminated string")?;
                self.p += c.len_utf8();
                match c {
                    '"' => return Ok(out),
                    '\u{0}'..='\u{1f}' => return Err("a control character in a string".to_string()),
                    '\\' => {
                        let e = self.s[self.p..].chars().next().ok_or("a short escape")?;
                        self.p += e.len_utf8();
                        match e {
                            '"' | '\\' | '/' => out.push(e),
                            'n' => out.push('\n'),
                            't' => out.push('\t'),
                            'r' => out.push('\r'),
                            'b' => out.push('\u{8}'),
                            'f' => out.push('\u{c}'),
                            'u' => {
                                let u = self.hex4()?;
                                let code = if (0xd800..0xdc00).contains(&u) {
                                    if !self.s[self.p..].starts_with("\\u") { return Err("a lone surrogate".to_string()); }
                                    self.p += 2;
                                    let low = self.hex4()?;
                                    if !(0xdc00..0xe000).contains(&low) { return Err("a lone surrogate".to_string()); }
                                    0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00)
                                } else { u };
                                out.push(char::from_u32(code).ok_or("a lone surrogate")?);
                            }
                            _ => return Err("a bad escape".to_string()),
                        }
                    }
                    _ => out.push(c),
                }
            }
        }
        fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Result<T, String>) -> Result<Vec<T>, String> {
            self.expect(b'[')?;
            let mut out = Vec::new();
            if self.peek(b']') { self.p += 1; return Ok(out); }
            loop {
                out.push(item(self)?);
                if self.peek(b',') { self.p += 1; continue; }
                self.expect(b']')?;
                return Ok(out);
            }
        }
    }
    /// A reader of one line (the candidate's driver decodes the test's arguments with it).
    pub fn reader(s: &str) -> Reader<'_> { Reader { s, p: 0 } }
    impl<'a> Reader<'a> {
        pub fn done(&mut self) -> bool { self.ws(); self.p == self.s.len() }
    }
    pub trait Dec: Sized { fn dec(r: &mut Reader) -> Result<Self, String>; }
    macro_rules! crucible_dec_int {
        ($($t:ty),*) => { $(impl Dec for $t {
            fn dec(r: &mut Reader) -> Result<Self, String> {
                let s = r.number()?;
                let digits = s.strip_prefix('-').unwrap_or(s);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || s == "-0" {
                    return Err(format!("not an integer: {}", cut(s)));
                }
                s.parse::<$t>().map_err(|_| format!("not an integer of the declared type: {}", cut(s)))
            }
        })* };
    }
    crucible_dec_int!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
    impl Dec for bool {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            if r.word("true") { Ok(true) } else if r.word("false") { Ok(false) } else { Err("not a boolean".to_string()) }
        }
    }
    macro_rules! crucible_dec_float {
        ($($t:ty),*) => { $(impl Dec for $t {
            fn dec(r: &mut Reader) -> Result<Self, String> {
                if r.peek(b'{') {
                    r.p += 1;
                    if r.string()? != "$f" { return Err("an unknown tag".to_string()); }
                    r.expect(b':')?;
                    let name = r.string()?;
                    r.expect(b'}')?;
                    return match name.as_str() {
                        "nan" => Ok(<$t>::NAN), "inf" => Ok(<$t>::INFINITY), "-inf" => Ok(<$t>::NEG_INFINITY),
                        _ => Err("an unknown float".to_string()),
                    };
                }
                let s = r.number()?;
                s.parse::<$t>().map_err(|_| format!("not a number: {}", cut(s)))
            }
        })* };
    }
    crucible_dec_float!(f32, f64);
    impl Dec for String { fn dec(r: &mut Reader) -> Result<Self, String> { r.string() } }
    impl<'a> Dec for &'a str {
        fn dec(r: &mut Reader) -> Result<Self, String> { Ok(Box::leak(r.string()?.into_boxed_str())) }
    }
    impl Dec for char {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            let s = r.string()?;
            let mut it = s.chars();
            match (it.next(), it.next()) { (Some(c), None) => Ok(c), _ => Err("not one character".to_string()) }
        }
    }
    impl<T: Dec> Dec for Vec<T> { fn dec(r: &mut Reader) -> Result<Self, String> { r.list(T::dec) } }
    impl<T: Dec> Dec for Option<T> {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            if r.word("null") { return Ok(None); }
            r.expect(b'[')?;
            let v = T::dec(r)?;
            r.expect(b']')?;
            Ok(Some(v))
        }
    }
    impl<A: Dec, B: Dec> Dec for (A, B) {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            r.expect(b'[')?; let a = A::dec(r)?; r.expect(b',')?; let b = B::dec(r)?; r.expect(b']')?;
            Ok((a, b))
        }
    }
    impl<A: Dec, B: Dec, C: Dec> Dec for (A, B, C) {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            r.expect(b'[')?; let a = A::dec(r)?; r.expect(b',')?; let b = B::dec(r)?; r.expect(b',')?; let c = C::dec(r)?;
            r.expect(b']')?;
            Ok((a, b, c))
        }
    }
    impl<K: Dec + Eq + std::hash::Hash, V: Dec> Dec for std::collections::HashMap<K, V> {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            r.expect(b'{')?;
            if r.string()? != "$m" { return Err("not a map".to_string()); }
            r.expect(b':')?;
            let entries = r.list(|r| { r.expect(b'[')?; let k = K::dec(r)?; r.expect(b',')?; let v = V::dec(r)?; r.expect(b']')?; Ok((k, v)) })?;
            r.expect(b'}')?;
            let mut out = std::collections::HashMap::new();
            for (k, v) in entries { if out.insert(k, v).is_some() { return Err("a repeated map key".to_string()); } }
            Ok(out)
        }
    }
    /// A Box<dyn Any> argument written {"$any": type, "v": value} (the Enc of dyn Any), rebuilt as a box of that type.
    impl Dec for Box<dyn std::any::Any> {
        fn dec(r: &mut Reader) -> Result<Self, String> {
            fn boxed<T: Dec + 'static>(r: &mut Reader) -> Result<Box<dyn std::any::Any>, String> { Ok(Box::new(T::dec(r)?)) }
            r.expect(b'{')?;
            if r.string()? != "$any" { return Err("not a boxed value".to_string()); }
            r.expect(b':')?;
            if r.peek(b'n') { return Err("a boxed value of a type that cannot be rebuilt".to_string()); }
            let t = r.string()?;
            r.expect(b',')?;
            if r.string()? != "v" { return Err("a boxed value without its value".to_string()); }
            r.expect(b':')?;
            let v = match t.as_str() {
                "i32" => boxed::<i32>(r)?, "i64" => boxed::<i64>(r)?, "u32" => boxed::<u32>(r)?, "usize" => boxed::<usize>(r)?,
                "f32" => boxed::<f32>(r)?, "f64" => boxed::<f64>(r)?, "bool" => boxed::<bool>(r)?, "char" => boxed::<char>(r)?,
                "String" => boxed::<String>(r)?, "&str" => boxed::<&'static str>(r)?,
                "Vec<Box<dyn Any>>" => boxed::<Vec<Box<dyn std::any::Any>>>(r)?,
                "Vec<i32>" => boxed::<Vec<i32>>(r)?, "Vec<String>" => boxed::<Vec<String>>(r)?,
                _ => return Err("a boxed value of an unknown type".to_string()),
            };
            r.expect(b'}')?;
            Ok(v)
        }
    }
    /// A driver's argument: a value, or {"$r": k}, the result of the driver's k-th call (its text) read as a T.
    pub fn arg<T: Dec>(r: &mut Reader, results: &[String]) -> Result<T, String> {
        r.ws();
        if !r.s[r.p..].starts_with("{\"$r\":") { return T::dec(r); }
        r.p += 6;
        let k = usize::dec(r)?;
        r.expect(b'}')?;
        let text = results.get(k).ok_or("a reference to a result not made")?;
        let mut q = reader(text);
        let v = T::dec(&mut q)?;
        if !q.done() { return Err("text after a referenced result".to_string()); }
        Ok(v)
    }
    static LINES: std::sync::Mutex<Option<&'static Vec<String>>> = std::sync::Mutex::new(None);
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    /// Whether a test failed (panicked) since the records were loaded: then the harness fails the run, and unused
    /// records are the failed test's, not a finding of their own.
    static PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    fn lines() -> &'static Vec<String> {
        let mut g = LINES.lock().unwrap_or_else(|e| e.into_inner());
        *g.get_or_insert_with(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                PANICKED.store(true, std::sync::atomic::Ordering::SeqCst);
                previous(info)
            }));
            match std::fs::read_to_string("${REPLAY_FILE}") {
                Ok(data) => Box::leak(Box::new(data.split_terminator('\n').map(|l| l.to_string()).collect())),
                Err(_) => fail("the call records cannot be read".to_string()),
            }
        })
    }
    pub fn call<R: Dec>(mine: &str) -> R {
        let all = lines();
        let k = COUNT.load(std::sync::atomic::Ordering::SeqCst);
        if k >= all.len() / 2 {
            fail(format!("call {} {}: the program's run ended after {} calls", k + 1, cut(mine), all.len() / 2));
        }
        if all[2 * k] != mine {
            fail(format!("call {}: the program's run diverged from the tests (it was called with {}, the tests pass {})",
                k + 1, cut(&all[2 * k]), cut(mine)));
        }
        let mut r = Reader { s: &all[2 * k + 1], p: 0 };
        let v = R::dec(&mut r).and_then(|v| { r.ws(); if r.p == r.s.len() { Ok(v) } else { Err("text after the value".to_string()) } });
        match v {
            Ok(v) => { COUNT.store(k + 1, std::sync::atomic::Ordering::SeqCst); v }
            Err(e) => fail(format!("call {}: a malformed recorded result ({})", k + 1, e)),
        }
    }
    pub fn finish() {
        let made = COUNT.load(std::sync::atomic::Ordering::SeqCst);
        if made != lines().len() / 2 && !PANICKED.load(std::sync::atomic::Ordering::SeqCst) {
            fail(format!("the program's run recorded {} calls, the tests made {}", lines().len() / 2, made));
        }
    }
}
`;

/** The trusted test that checks every record was used, named to run after the dataset's tests and before the marker's. */
const FINISH_TEST = '\n#[test]\nfn zzzy_crucible_replay_finish() {\n    crate::crucible_replayer::finish();\n}\n';

/** One function the tests' calls are recorded for: its name and signature text. */
interface Recorded {
  readonly name: string;
  /** The `<…>` generics of its header (lifetimes), or ''. */
  readonly generics: string;
  /** `[name, type]` per parameter (a `mut` binding dropped). */
  readonly params: readonly (readonly [string, string])[];
  readonly result: string;
}

/**
 * Whether a type text is built from the std types `Enc` covers (lifetimes aside; no own types, no trait objects but
 * `Box<dyn Any>` and `&dyn Any`), or is `enumType` (a result of an enum the canonical solution defines).
 */
function supportedType(type: string, enumType?: string): boolean {
  if (enumType !== undefined && type.replace(/\s/g, '') === enumType) return true;
  return type.replace(/'[A-Za-z_]\w*/g, '').replace(/\bBox\s*<\s*dyn\s+Any\s*>|&\s*dyn\s+Any\b/g, '')
    .replace(/\b(bool|char|[iu](8|16|32|64|128|size)|f32|f64|String|str|Vec|Option|HashMap)\b/g, '')
    .replace(/[\s&<>(),]/g, '') === '';
}

/**
 * A function's signature from its `fn` header's parts, or undefined when a type is not supported. `enumType` is the
 * result type when it is an enum of the canonical solution (`RtnType<String,f64,i32>`, spaces removed).
 */
function recorded(name: string, generics: string | undefined, params: string, result: string | undefined, enumType?: string): Recorded | undefined {
  if (generics !== undefined && !/^<\s*'[A-Za-z_]\w*(?:\s*,\s*'[A-Za-z_]\w*)*\s*>$/.test(generics)) return undefined;
  const out: (readonly [string, string])[] = [];
  for (const part of splitParameters(params)) {
    const m = /^(?:mut\s+)?([A-Za-z_]\w*)\s*:\s*([\s\S]+)$/.exec(part);
    if (m === null || !supportedType(m[2]!)) return undefined;
    out.push([m[1]!, m[2]!.trim()]);
  }
  const type = (result ?? '').trim();
  if (type === '' || !supportedType(type, enumType) || /\bdyn\b/.test(type) || /^&/.test(type) && !/^&\s*str$/.test(type)) return undefined;
  return { name, generics: generics ?? '', params: out, result: type };
}

/** An enum the canonical solution defines (a result type no std `Enc`/`Dec` covers): its definition and tuple variants. */
interface CanonicalEnum {
  readonly name: string;
  /** Its generic parameters' names (`S`, `F`, `I`). */
  readonly parameters: readonly string[];
  /** Its definition text with its attributes (trusted: the problem's canonical solution). */
  readonly definition: string;
  /** Variant name -> its payload types (in the enum's generic parameters). */
  readonly variants: ReadonlyMap<string, readonly string[]>;
}

/** The enum `name` as the canonical solution defines it, or undefined when it is not one of tuple or unit variants. */
function canonicalEnum(canonical: string, name: string): CanonicalEnum | undefined {
  const m = new RegExp(`((?:#\\[[^\\]]*\\]\\s*)*)(?:pub\\s+)?enum\\s+${name}\\s*(?:<([^>]*)>)?\\s*\\{([^{}]*)\\}`).exec(canonical);
  if (m === null || !/\bderive\s*\([^)]*\bPartialEq\b/.test(m[1]!)) return undefined;
  const parameters = (m[2] ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (!parameters.every((p) => /^[A-Z]\w*$/.test(p))) return undefined;
  const variants = new Map<string, readonly string[]>();
  for (const v of splitParameters(m[3]!)) {
    const variant = /^([A-Za-z_]\w*)\s*(?:\(([^()]*)\))?$/.exec(v);
    if (variant === null) return undefined;
    variants.set(variant[1]!, splitParameters(variant[2] ?? ''));
  }
  return { name, parameters, definition: m[0].trim(), variants };
}

/** The payload types of `e`'s variants with its generic parameters bound to `result`'s arguments, or undefined. */
function boundVariants(e: CanonicalEnum, result: string): ReadonlyMap<string, readonly string[]> | undefined {
  const args = /^\w+\s*<([\s\S]*)>$/.exec(result.trim());
  const bound = args === null ? [] : splitParameters(args[1]!);
  if (bound.length !== e.parameters.length) return undefined;
  const out = new Map<string, readonly string[]>();
  for (const [variant, payload] of e.variants) {
    const types = payload.map((t) => e.parameters.includes(t) ? bound[e.parameters.indexOf(t)]! : t);
    if (!types.every((t) => supportedType(t))) return undefined;
    out.set(variant, types);
  }
  return out;
}

/**
 * The `Enc` (candidate's box, on the candidate's own enum of that name) and `Dec` (trusted box, on the canonical
 * solution's) of an enum result: `{"$v": variant, "x": [payload...]}` for the variants the test names; any other
 * variant of the candidate's enum is written `{"$v": null}`, which the decoder refuses.
 */
function enumCodec(result: string, variants: ReadonlyMap<string, readonly string[]>, named: ReadonlySet<string>, side: 'enc' | 'dec'): string {
  const base = /^\w+/.exec(result)![0];
  const used = [...variants].filter(([v]) => named.has(v));
  if (side === 'enc') {
    const arms = used.map(([v, types]) => {
      const names = types.map((_, i) => `x${i}`);
      const pushes = names.map((n, i) => `${i > 0 ? 'o.push(\',\'); ' : ''}crate::crucible_replay::Enc::enc(${n}, o);`).join(' ');
      return `            ${base}::${v}(${names.join(', ')}) => { o.push_str("{\\"$v\\":\\"${v}\\",\\"x\\":["); ${pushes} o.push_str("]}"); }`;
    });
    return `\n#[allow(unreachable_patterns, unused_variables)]\nimpl crate::crucible_replay::Enc for ${result} {\n`
      + `    fn enc(&self, o: &mut String) {\n        match self {\n${arms.join('\n')}\n            _ => o.push_str("{\\"$v\\":null}"),\n        }\n    }\n}\n`;
  }
  const arms = used.map(([v, types]) => {
    const reads = types.map((t, i) => `${i > 0 ? 'r.expect(b\',\')?; ' : ''}let x${i} = <${t} as crate::crucible_replayer::Dec>::dec(r)?;`).join(' ');
    return `            "${v}" => { r.expect(b'[')?; ${reads} r.expect(b']')?; ${base}::${v}(${types.map((_, i) => `x${i}`).join(', ')}) }`;
  });
  return `\nimpl crate::crucible_replayer::Dec for ${result} {\n    fn dec(r: &mut crate::crucible_replayer::Reader) -> Result<Self, String> {\n`
    + '        r.expect(b\'{\')?;\n        if r.string()? != "$v" { return Err("not a variant".to_string()); }\n        r.expect(b\':\')?;\n'
    + '        if r.peek(b\'n\') { return Err("a variant the tests do not name".to_string()); }\n        let v = r.string()?;\n'
    + '        r.expect(b\',\')?;\n        if r.string()? != "x" { return Err("a variant without its values".to_string()); }\n        r.expect(b\':\')?;\n'
    + `        let out = match v.as_str() {\n${arms.join('\n')}\n            _ => return Err("a variant the tests do not name".to_string()),\n        };\n`
    + '        r.expect(b\'}\')?;\n        Ok(out)\n    }\n}\n';
}

/** The entry point: the last function the prompt opens, with nothing but comments after it. */
function entryOf(prompt: string): { readonly name: string; readonly generics: string | undefined; readonly params: string;
  readonly result: string | undefined; } | undefined {
  const all = [...prompt.matchAll(/\bfn\s+([A-Za-z_]\w*)\s*(<[^>]*>)?\s*\(([^()]*)\)\s*(?:->\s*([^{]+?))?\s*\{/g)];
  const m = all[all.length - 1];
  if (m === undefined) return undefined;
  const rest = prompt.slice(m.index + m[0].length).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  if (rest.trim() !== '') return undefined;
  return { name: m[1]!, generics: m[2], params: m[3]!, result: m[4] };
}

/** Names the test's code (comments out) calls as plain functions (not methods or paths), minus those it defines. */
function calledNames(test: string): Set<string> {
  const code = test.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const called = new Set([...code.matchAll(/(?<![\w.:])([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!));
  for (const m of test.matchAll(/\bfn\s+([A-Za-z_]\w*)/g)) called.delete(m[1]!);
  return called;
}

/** The entry point's result when it is an enum of the canonical solution: its definition and its codecs' parts. */
interface EnumResult {
  readonly type: string;
  readonly definition: string;
  readonly variants: ReadonlyMap<string, readonly string[]>;
  /** The variants the test names (`RtnType::Int(…)`). */
  readonly named: ReadonlySet<string>;
}

/** The entry point's result as an enum the canonical solution defines (Rust/137's `RtnType<String,f64,i32>`), if it is one. */
function enumResultOf(problem: ScriptProblem, result: string | undefined): EnumResult | undefined {
  const base = /^\s*([A-Z]\w*)\s*(?:<|$)/.exec(result ?? '');
  if (base === null || /\benum\s+/.test(problem.prompt)) return undefined;
  const e = canonicalEnum(problem.canonicalSolution ?? '', base[1]!);
  const variants = e === undefined ? undefined : boundVariants(e, result!);
  if (e === undefined || variants === undefined) return undefined;
  const named = new Set([...problem.test.matchAll(new RegExp(`\\b${e.name}\\s*::\\s*([A-Za-z_]\\w*)`, 'g'))].map((m) => m[1]!));
  if (named.size === 0 || [...named].some((v) => !variants.has(v))) return undefined;
  return { type: result!.replace(/\s/g, ''), definition: e.definition, variants, named };
}

/** The functions whose calls are recorded, or undefined when one of the test's calls cannot be. */
function recordedOf(problem: ScriptProblem, entry: NonNullable<ReturnType<typeof entryOf>>, enumResult: EnumResult | undefined): Recorded[] | undefined {
  const called = calledNames(problem.test);
  const out: Recorded[] = [];
  if (called.has(entry.name)) {
    const r = recorded(entry.name, entry.generics, entry.params, entry.result, enumResult?.type);
    if (r === undefined) return undefined;
    out.push(r);
  }
  const defined = new Set([...problem.prompt.matchAll(/\bfn\s+([A-Za-z_]\w*)/g)].map((m) => m[1]!));
  for (const m of (problem.canonicalSolution ?? '').matchAll(/\bfn\s+([A-Za-z_]\w*)\s*(<[^>]*>)?\s*\(([^()]*)\)\s*(?:->\s*([^{]+?))?\s*\{/g)) {
    const name = m[1]!;
    if (!called.has(name) || defined.has(name) || out.some((r) => r.name === name)) continue;
    const r = recorded(name, m[2], m[3]!, m[4]);
    if (r === undefined) return undefined;
    out.push(r);
  }
  return out;
}

/** The test with the recorded functions' calls going to `crucible_record_<name>` and its randomness made fixed. */
function rewriteTest(test: string, functions: readonly Recorded[]): string {
  let out = test;
  for (const f of functions) out = out.replace(new RegExp(`(?<![\\w.:])${f.name}(?=\\s*\\()`, 'g'), `crucible_record_${f.name}`);
  return out
    .replace(/(?<![\w:])(?:::)?rand::thread_rng\s*\(\s*\)/g, 'crate::crucible_replay::test_rng()')
    .replace(/(?<![\w:])(?:::)?rand::random(?=\s*(?:::\s*<|\())/g, 'crate::crucible_replay::test_random');
}

/**
 * The recorder (candidate's box) or replay stub (trusted box) of `f`; with `tagged` (the tests call several
 * functions) its argument lists are led by `{"$fn": name}`, as the driver's (`./rust-driver.ts`).
 */
function wrapper(f: Recorded, kind: 'record' | 'replay', tagged: boolean): string {
  const params = f.params.map(([n, t]) => `${n}: ${t}`).join(', ');
  const names = f.params.map(([n]) => n);
  const encs = `&[${names.map((n) => `&${n} as &dyn crate::crucible_replay::Enc`).join(', ')}]`;
  const args = tagged ? `crate::crucible_replay::tagged_args("${f.name}", ${encs})` : `crate::crucible_replay::args(${encs})`;
  const body = kind === 'record'
    ? `    let crucible_args = ${args};\n    let crucible_result: ${f.result} = ${f.name}(${names.join(', ')});\n`
      + '    crate::crucible_recorder::record(crucible_args, &crucible_result);\n    crucible_result\n'
    : `    crate::crucible_replayer::call::<${f.result}>(&${args})\n`;
  return `\n#[allow(non_snake_case, unused_mut)]\nfn crucible_record_${f.name}${f.generics}(${params}) -> ${f.result} {\n${body}}\n`;
}

/** HumanEval-X Rust replay (see the module comment). */
export const RUST_REPLAY: ReplaySplit = {
  prepare(problem: ScriptProblem): ReplayProblem | undefined {
    const entry = entryOf(problem.prompt);
    if (entry === undefined || /\b(?:unsafe|extern|static\s+mut)\b/.test(problem.prompt)) return undefined;
    const enumResult = enumResultOf(problem, entry.result);
    const functions = recordedOf(problem, entry, enumResult);
    if (functions === undefined) return undefined;
    const enumCodecs = (side: 'enc' | 'dec'): string => enumResult === undefined ? ''
      : `${side === 'dec' ? `\n${enumResult.definition}\n` : ''}${enumCodec(enumResult.type, enumResult.variants, enumResult.named, side)}`;
    const test = rewriteTest(problem.test, functions);
    const tagged = functions.length > 1;
    const language = problem.language;
    const setup = problem.setup ?? '';
    const trustedProgram = assembleHumanEvalX(language, {
      setup,
      program: `${problem.prompt}\n    unreachable!()\n}\n${ENCODER}${REPLAYER}${enumCodecs('dec')}${functions.map((f) => wrapper(f, 'replay', tagged)).join('')}`,
      test: `${test}${FINISH_TEST}`,
    });
    const candidateTest = test
      .replace(/(?<![\w:])(?:::)?(?:std::)?assert_eq!\s*\(/g, 'crucible_no_assert_eq!(')
      .replace(/(?<![\w:])(?:::)?(?:std::)?assert_ne!\s*\(/g, 'crucible_no_assert_ne!(')
      .replace(/(?<![\w:])(?:::)?(?:std::)?assert!\s*\(/g, 'crucible_no_assert!(');
    const recorders = functions.map((f) => wrapper(f, 'record', tagged)).join('');
    const recording = (program: string): string => assembleHumanEvalX(language, {
      setup, program: `${program}\n${ENCODER}${RECORDER}${enumCodecs('enc')}${recorders}`, test: candidateTest,
    });
    const driver = rustDriver(functions);
    if (driver === undefined) return { entryPoint: entry.name, candidateProgram: recording, trustedProgram };
    // A test that calls nothing (Rust/32's is commented out in the dataset) has no arguments to record.
    const argumentPrograms = functions.length === 0 ? [] : [
      ...(problem.canonicalSolution === undefined ? [] : [recording(problem.prompt + problem.canonicalSolution)]),
      recording(`${problem.prompt}\n    Default::default()\n}\n`),
    ];
    return {
      entryPoint: entry.name,
      candidateProgram: (program) => assembleHumanEvalX(language, {
        setup, program: `${program}\n${ENCODER}${RECORDER}${REPLAYER}${enumCodecs('enc')}`, test: driver,
      }),
      trustedProgram,
      argumentPrograms,
      ...(tagged ? { linkResults: true } : {}),
    };
  },
};
