/**
 * The candidate's driver of a driven Rust replay (`./rust.ts`, `./replay.ts`): a test of its own, in the test's place
 * in the assembly, that reads one argument list per stdin line, decodes it as data with the trusted decoder (`Dec`
 * of `./rust.ts`'s replay runtime), calls the candidate's function and prints one call record per line. No line of
 * the dataset's test and no expected value is in it.
 *
 * Lines: `[a, b, ...]` when the tests call one function; `[{"$fn": name}, a, b, ...]` when they call several
 * (Rust/38 `encode_cyclic` and `decode_cyclic`), the record's arguments carrying the same tag. An argument may be
 * `{"$r": k}`: the result of the driver's own k-th call, decoded from its recorded text into the parameter's type
 * (the tests' `decode_cyclic(&encode_cyclic(&s))`: the composition is evaluated in the candidate's box on values
 * the trusted side sends, as the test did in one process; `linkResults` in `./replay.ts` decides which arguments).
 */

/** A function the driver calls: its name, `[name, type]` per parameter, and its result type (as in the canonical signature). */
export interface DriverFunction {
  readonly name: string;
  readonly params: readonly (readonly [string, string])[];
  readonly result: string;
}

/** How the driver holds one parameter (the type it decodes) and passes it (the borrow written before the variable). */
interface DrivenParameter {
  readonly decoded: string;
  readonly pass: '' | '&' | '&mut ' | '&*';
}

/** The trait-object type the decoder rebuilds (`Box<dyn Any>` as data tagged with its dynamic type). */
const BOXED_ANY = 'Box<dyn std::any::Any>';

/**
 * How the driver holds and passes one parameter: the type it decodes (lifetimes dropped, `&str` as `String`,
 * `&[T]` as `Vec<T>`, `&T`/`&mut T` as `T`, `&dyn Any` as `Box<dyn Any>` passed as `&*`) and the borrow it
 * passes; undefined for a type it cannot decode (another trait object, a nested borrow or slice).
 */
export function drivenParameter(type: string): DrivenParameter | undefined {
  let t = type.replace(/'[A-Za-z_]\w*\s*/g, '').trim();
  if (/^&\s*dyn\s+Any$/.test(t)) return { decoded: BOXED_ANY, pass: '&*' };
  let pass: DrivenParameter['pass'] = '';
  const ref = /^&\s*(mut\s+)?([\s\S]+)$/.exec(t);
  if (ref !== null) {
    pass = ref[1] === undefined ? '&' : '&mut ';
    t = ref[2]!.trim();
    if (t === 'str') t = 'String';
    const slice = /^\[([\s\S]+)\]$/.exec(t);
    if (slice !== null) t = `Vec<${slice[1]!}>`;
  }
  t = t.replace(/\bBox\s*<\s*dyn\s+Any\s*>/g, BOXED_ANY);
  if (/\bdyn\b/.test(t.split(BOXED_ANY).join('')) || /[&[]/.test(t.replace(/&\s*str\b/g, ''))) return undefined;
  return { decoded: t.replace(/&\s*str\b/g, '&\'static str'), pass };
}

/** The driver's function for the k-th function: decodes the rest of a line's arguments, calls it, records the call. */
function callFunction(k: number, f: DriverFunction, params: readonly DrivenParameter[], tagged: boolean): string {
  const vars = params.map((_, i) => `crucible_a${i}`);
  const reads = params.map((p, i) => `    ${tagged || i > 0 ? 'r.expect(b\',\')?; ' : ''}`
    + `let mut ${vars[i]} = crate::crucible_replayer::arg::<${p.decoded}>(r, crucible_results)?;\n`).join('');
  const encs = `&[${vars.map((v) => `&${v} as &dyn crate::crucible_replay::Enc`).join(', ')}]`;
  const args = tagged ? `crate::crucible_replay::tagged_args("${f.name}", ${encs})` : `crate::crucible_replay::args(${encs})`;
  return `
#[allow(unused_mut, unused_variables, non_snake_case)]
fn crucible_call_${k}(r: &mut crate::crucible_replayer::Reader, crucible_results: &[String]) -> Result<String, String> {
${reads}    r.expect(b']')?;
    if !r.done() { return Err("text after the arguments".to_string()); }
    let crucible_args = ${args};
    let crucible_result: ${f.result} = ${f.name}(${params.map((p, i) => `${p.pass}${vars[i]}`).join(', ')});
    let mut crucible_text = String::new();
    crate::crucible_replay::Enc::enc(&crucible_result, &mut crucible_text);
    crate::crucible_recorder::record_encoded(crucible_args, &crucible_text);
    Ok(crucible_text)
}
`;
}

/** The dispatch of one line to its function's `crucible_call_k` (by the `{"$fn": name}` tag when `tagged`). */
function dispatch(functions: readonly DriverFunction[], tagged: boolean): string {
  const head = 'fn crucible_dispatch(r: &mut crate::crucible_replayer::Reader, crucible_results: &[String]) -> Result<String, String> {\n'
    + '    r.expect(b\'[\')?;\n';
  if (!tagged) {
    const body = functions.length === 0 ? '    Err("the tests call no function".to_string())' : '    crucible_call_0(r, crucible_results)';
    return `\n${head}${body}\n}\n`;
  }
  const arms = functions.map((f, k) => `        "${f.name}" => crucible_call_${k}(r, crucible_results),\n`).join('');
  return `\n${head}    r.expect(b'{')?;\n    if r.string()? != "$fn" { return Err("a call without its function".to_string()); }\n`
    + '    r.expect(b\':\')?;\n    let crucible_f = r.string()?;\n    r.expect(b\'}\')?;\n'
    + `    match crucible_f.as_str() {\n${arms}        _ => Err("a function the tests do not call".to_string()),\n    }\n}\n`;
}

/** The driver's test: every stdin line dispatched in order (results kept for references when `tagged`), then exit 0. */
const DRIVE_TEST = (tagged: boolean): string => `
#[test]
#[allow(unused_mut)]
fn crucible_drive() {
    let mut crucible_in = String::new();
    if std::io::Read::read_to_string(&mut std::io::stdin(), &mut crucible_in).is_err() {
        eprintln!("undecodable arguments: stdin is not text");
        std::process::exit(3);
    }
    let mut crucible_results: Vec<String> = Vec::new();
    for crucible_line in crucible_in.split_terminator('\\n') {
        let mut r = crate::crucible_replayer::reader(crucible_line);
        match crucible_dispatch(&mut r, &crucible_results) {
            Ok(crucible_text) => { ${tagged ? 'crucible_results.push(crucible_text);' : 'let _ = crucible_text;'} }
            Err(e) => { eprintln!("undecodable arguments: {}", e); std::process::exit(3) }
        }
    }
    std::process::exit(0);
}
`;

/**
 * The driver of `functions` (the functions the tests call, in the candidate's program; none when the test makes
 * no call): lines tagged with the function when there are several. Undefined when a parameter cannot be decoded.
 * The driver exits 0 after the last line (the marker test never runs: nothing here decides a verdict), and 3 with
 * `undecodable arguments: …` on stderr for a line it cannot read.
 */
export function rustDriver(functions: readonly DriverFunction[]): string | undefined {
  const tagged = functions.length > 1;
  const calls: string[] = [];
  for (const [k, f] of functions.entries()) {
    const params = f.params.map(([, t]) => drivenParameter(t));
    if (!params.every((p): p is DrivenParameter => p !== undefined)) return undefined;
    calls.push(callFunction(k, f, params, tagged));
  }
  return `${calls.join('')}${dispatch(functions, tagged)}${DRIVE_TEST(tagged)}`;
}
