/**
 * bench:compiled — compiled languages, compile once and run many (Crucible) against recompile-per-test (what
 * SandboxFusion, Piston and Judge0 do for a stdin/stdout problem: every test submission compiles the program again
 * and runs it once), both through the same sandbox, so the ratio measures the judging strategy, not the sandbox.
 *
 * The problem (one per language, the same tests): read n and n integers, print their sum and their maximum; 50
 * tests (seeded), values up to 10^9 so a 32-bit sum overflows. The samples: a few hand-written programs per
 * language (correct, correct another way, 32-bit sum overflow, prints the sum only), taken in turn to make
 * `--samples` programs, each made distinct by a trailing comment `// sample N` — so neither Crucible's
 * deduplication of identical programs nor its compile cache merges them: every sample is compiled (once).
 * Crucible: `judge.judge` of an `io` problem with every test run (failFast off, as the baseline runs every test).
 * Recompile-per-test: for `--baseline-samples` of the same samples (default 4; 200 × 50 compilations would take
 * hours), each test compiles the program in a fresh compile box (a per-test file beside the source defeats the
 * compile cache) and runs it once; the figure is extrapolated per sample. Verdicts of both are checked equal test
 * by test. Printed too: where a sample's time goes (sandbox-measured wall of a compilation and of a run on each
 * side) and the ratio that split predicts, tests × (compile + run) / (compile + tests × run), which is how a figure
 * measured on a loaded machine (runs slowed more than compilations) is read for an idle one. `--baseline-samples`
 * below `--jobs` leaves slots idle on the baseline's side and flatters Crucible: keep it a multiple of `--jobs`.
 * Usage: npm run bench:compiled [-- --languages cpp,java,rust,go --samples 200 --baseline-samples 4 --jobs 2]
 */
import { availableParallelism, loadavg } from 'node:os';
import type { IoProblem } from '../src/formats/types.js';
import { LanguageRegistry } from '../src/languages/registry.js';
import type { Language } from '../src/languages/schema.js';
import { createJudge } from '../src/engine/factory.js';
import { Executor } from '../src/engine/executor.js';
import { DEFAULT_COMPILE_LIMITS, JUDGE_DEFAULTS, runLimits } from '../src/limits.js';
import { Sandbox } from '../src/sandbox/index.js';
import type { ExecutionResult } from '../src/sandbox/types.js';
import { runStatus, type Verdict } from '../src/verdict/index.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const languageIds = (arg('--languages') ?? 'cpp,java,rust,go').split(',');
const sampleCount = Number(arg('--samples') ?? 200);
const baselineSamples = Number(arg('--baseline-samples') ?? 4);
const jobs = Number(arg('--jobs') ?? availableParallelism());
const TESTS = 50;

/** Deterministic tests (mulberry32, seed 32). */
function makeTests(): IoProblem['tests'] {
  let state = 32;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: TESTS }, (_, i) => {
    const n = 1 + Math.floor(next() * (i < 10 ? 10 : 1000));
    const values = Array.from({ length: n }, () => Math.floor(next() * (i < 10 ? 100 : 1e9)));
    const sum = values.reduce((a, b) => a + b, 0);
    return { input: `${n}\n${values.join(' ')}\n`, output: `${sum} ${Math.max(...values)}\n` };
  });
}

/** Hand-written programs per language: [correct, correct another way, 32-bit overflow, sum only]. */
const PROGRAMS: Record<string, readonly string[]> = {
  cpp: [
    '#include <cstdio>\nint main(){int n;scanf("%d",&n);long long s=0,m=-1;for(int i=0;i<n;i++){long long x;scanf("%lld",&x);s+=x;if(x>m)m=x;}printf("%lld %lld\\n",s,m);}\n',
    '#include <iostream>\n#include <vector>\n#include <numeric>\n#include <algorithm>\nint main(){std::ios::sync_with_stdio(false);int n;std::cin>>n;std::vector<long long> v(n);for(auto&x:v)std::cin>>x;\nstd::cout<<std::accumulate(v.begin(),v.end(),0LL)<<" "<<*std::max_element(v.begin(),v.end())<<"\\n";}\n',
    '#include <cstdio>\nint main(){int n;scanf("%d",&n);int s=0,m=-1;for(int i=0;i<n;i++){int x;scanf("%d",&x);s+=x;if(x>m)m=x;}printf("%d %d\\n",s,m);}\n',
    '#include <cstdio>\nint main(){int n;scanf("%d",&n);long long s=0;for(int i=0;i<n;i++){long long x;scanf("%lld",&x);s+=x;}printf("%lld\\n",s);}\n',
  ],
  java: [
    'import java.io.*;\nimport java.util.*;\npublic class Main{public static void main(String[] a)throws IOException{StreamTokenizer t=new StreamTokenizer(new BufferedInputStream(System.in));t.nextToken();int n=(int)t.nval;long s=0,m=-1;for(int i=0;i<n;i++){t.nextToken();long x=(long)t.nval;s+=x;m=Math.max(m,x);}System.out.println(s+" "+m);}}\n',
    'import java.util.*;\npublic class Main{public static void main(String[] a){Scanner sc=new Scanner(System.in);int n=sc.nextInt();long s=0,m=-1;for(int i=0;i<n;i++){long x=sc.nextLong();s+=x;m=Math.max(m,x);}System.out.println(s+" "+m);}}\n',
    'import java.util.*;\npublic class Main{public static void main(String[] a){Scanner sc=new Scanner(System.in);int n=sc.nextInt();int s=0,m=-1;for(int i=0;i<n;i++){int x=sc.nextInt();s+=x;m=Math.max(m,x);}System.out.println(s+" "+m);}}\n',
    'import java.util.*;\npublic class Main{public static void main(String[] a){Scanner sc=new Scanner(System.in);int n=sc.nextInt();long s=0;for(int i=0;i<n;i++){s+=sc.nextLong();}System.out.println(s);}}\n',
  ],
  rust: [
    'use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();let xs=&v[1..];println!("{} {}",xs.iter().sum::<i64>(),xs.iter().max().unwrap());}\n',
    'use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let mut it=s.split_whitespace();let n:usize=it.next().unwrap().parse().unwrap();let mut t:i64=0;let mut m:i64=-1;for _ in 0..n{let x:i64=it.next().unwrap().parse().unwrap();t+=x;if x>m{m=x;}}println!("{} {}",t,m);}\n',
    'use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<i32>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();let xs=&v[1..];let t=xs.iter().fold(0i32,|a,b|a.wrapping_add(*b));println!("{} {}",t,xs.iter().max().unwrap());}\n',
    'use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();println!("{}",v[1..].iter().sum::<i64>());}\n',
  ],
  go: [
    'package main\nimport ("bufio";"fmt";"os")\nfunc main(){r:=bufio.NewReader(os.Stdin);var n int;fmt.Fscan(r,&n);var s,m int64=0,-1;for i:=0;i<n;i++{var x int64;fmt.Fscan(r,&x);s+=x;if x>m{m=x}};fmt.Println(s,m)}\n',
    'package main\nimport ("bufio";"os";"strconv";"fmt")\nfunc main(){sc:=bufio.NewScanner(os.Stdin);sc.Buffer(make([]byte,1<<20),1<<20);sc.Split(bufio.ScanWords);sc.Scan();n,_:=strconv.Atoi(sc.Text());var s,m int64=0,-1;for i:=0;i<n;i++{sc.Scan();x,_:=strconv.ParseInt(sc.Text(),10,64);s+=x;if x>m{m=x}};fmt.Println(s,m)}\n',
    'package main\nimport ("bufio";"fmt";"os")\nfunc main(){r:=bufio.NewReader(os.Stdin);var n int;fmt.Fscan(r,&n);var s,m int32=0,-1;for i:=0;i<n;i++{var x int32;fmt.Fscan(r,&x);s+=x;if x>m{m=x}};fmt.Println(s,m)}\n',
    'package main\nimport ("bufio";"fmt";"os")\nfunc main(){r:=bufio.NewReader(os.Stdin);var n int;fmt.Fscan(r,&n);var s int64;for i:=0;i<n;i++{var x int64;fmt.Fscan(r,&x);s+=x};fmt.Println(s)}\n',
  ],
};

/** Sample i of a language: its programs in turn, each made distinct by a comment. */
function sampleSource(languageId: string, i: number): string {
  const programs = PROGRAMS[languageId]!;
  return `${programs[i % programs.length]!}// sample ${i}\n`;
}

const tokens = (text: string): string => text.trim().split(/\s+/).join(' ');

/** Run `count` tasks, `width` at a time. */
async function pool<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  }));
  return out;
}

/** What one recompile-per-test sample cost and how each of its tests ended (`passed`, `wrong_answer` or the run's status). */
interface BaselineSample {
  readonly statuses: readonly string[];
  /** Sandbox-measured wall time of each compilation, ms. */
  readonly compileWallMs: readonly number[];
  /** Sandbox-measured wall time of each run, ms. */
  readonly runWallMs: readonly number[];
}

/** A test's status as the `io` mode judges it (src/kinds/io/io.ts `judgeRun`, with the tokens comparator). */
function testStatus(result: ExecutionResult, expected: string): string {
  if (result.status !== 'ok') return runStatus(result);
  return tokens(result.stdout) === tokens(expected) ? 'passed' : 'wrong_answer';
}

/**
 * Recompile-per-test: every test compiles afresh (a per-test nonce file beside the source) and runs once; a
 * failed compilation ends the sample (its remaining tests are `compile_error`).
 */
async function recompilePerTest(executor: Executor, language: Language, source: string, problem: IoProblem, sample: number): Promise<BaselineSample> {
  const limits = runLimits({ cpuMs: JUDGE_DEFAULTS.cpuMs, memoryKiB: JUDGE_DEFAULTS.memoryKiB });
  const statuses: string[] = [];
  const compileWallMs: number[] = [];
  const runWallMs: number[] = [];
  for (const [t, test] of problem.tests.entries()) {
    const built = await executor.compile(language, source, DEFAULT_COMPILE_LIMITS, { files: { 'nonce.txt': `${sample}/${t}` } });
    if (built.result !== null) compileWallMs.push(built.result.wallMs);
    if (!built.ok) {
      statuses.push(...problem.tests.slice(t).map(() => 'compile_error'));
      break;
    }
    // The artifact is discarded by the executor's cache once newer ones push it out (it keeps 4 per slot).
    const result = await executor.runCompiled(language, source, built, test.input, limits);
    runWallMs.push(result.wallMs);
    statuses.push(testStatus(result, test.output));
  }
  return { statuses, compileWallMs, runWallMs };
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/**
 * Where a sample's time goes, from sandbox-measured wall times (ms): a compilation (the baseline's), a run under
 * Crucible (its verdicts' runs) and under the baseline; and the ratio those predict for `tests` tests,
 * tests × (compile + baseline run) / (compile + tests × Crucible run), both sides using the same slots.
 */
function split(baseline: readonly BaselineSample[], verdicts: readonly Verdict[], tests: number):
  { compileMs: number; crucibleRunMs: number; baselineRunMs: number; predicted: number } {
  const compileMs = mean(baseline.flatMap((b) => b.compileWallMs));
  const baselineRunMs = mean(baseline.flatMap((b) => b.runWallMs));
  const crucibleRunMs = mean(verdicts.flatMap((v) => v.tests.flatMap((t) => t.wallMs === undefined ? [] : [t.wallMs])));
  return { compileMs, crucibleRunMs, baselineRunMs,
    predicted: tests * (compileMs + baselineRunMs) / (compileMs + tests * crucibleRunMs) };
}

const languages = LanguageRegistry.load();
const sandbox = Sandbox.create({ slots: jobs });
const judge = createJudge({ sandbox, languages, cacheDir: null });
const executor = new Executor(sandbox, languages, 4 * jobs);
const tests = makeTests();
try {
  for (const id of languageIds) {
    const language = languages.get(id);
    const problem: IoProblem = { kind: 'io', taskId: `bench/sum-max-${id}`, tests, comparator: { kind: 'tokens' } };
    const load0 = loadavg()[0]!.toFixed(1);
    const started = Date.now();
    const verdicts = await Promise.all(Array.from({ length: sampleCount }, (_, i) =>
      judge.judge({ problem: { inline: problem }, program: { language: id, source: sampleSource(id, i) }, failFast: false })));
    const crucibleS = (Date.now() - started) / 1000;
    const baseStarted = Date.now();
    const baseline = await pool(baselineSamples, jobs, (i) => recompilePerTest(executor, language, sampleSource(id, i), problem, i));
    const baselineS = (Date.now() - baseStarted) / 1000;
    // Test by test: the baseline's statuses against Crucible's (every test ran: fail-fast is off).
    let differing = 0;
    for (const [i, b] of baseline.entries()) {
      const crucible = verdicts[i]!.tests.map((t) => t.status);
      const tests = b.statuses.flatMap((s, t) => s === crucible[t] ? [] : [`test ${t}: ${s} (baseline) vs ${crucible[t] ?? 'none'} (crucible)`]);
      if (tests.length === 0 && b.statuses.length === crucible.length) continue;
      differing++;
      console.log(`  sample ${i} differs: ${tests.slice(0, 3).join('; ')} (${b.statuses.length} and ${crucible.length} tests)`);
    }
    const perCrucible = crucibleS / sampleCount;
    const perBaseline = baselineS / baselineSamples;
    const counts: Record<string, number> = {};
    for (const v of verdicts) counts[v.status] = (counts[v.status] ?? 0) + 1;
    console.log(`${id}: ${sampleCount} samples x ${TESTS} tests, jobs ${jobs}, load ${load0} -> ${loadavg()[0]!.toFixed(1)}`);
    console.log(`  crucible (compile once, run ${TESTS}): ${crucibleS.toFixed(1)} s = ${(1000 * perCrucible).toFixed(0)} ms/sample; verdicts ${JSON.stringify(counts)}`);
    console.log(`  recompile-per-test (${baselineSamples} samples, ${baselineSamples * TESTS} compilations): ${baselineS.toFixed(1)} s = ${(1000 * perBaseline).toFixed(0)} ms/sample`);
    console.log(`  ratio ${(perBaseline / perCrucible).toFixed(1)}x; test verdicts of the baseline's ${baselineSamples} samples: ${differing === 0 ? 'all agree' : `${differing} samples DIFFER`}`);
    const cost = split(baseline, verdicts, TESTS);
    console.log(`  split (sandbox wall, slot-ms): compile ${cost.compileMs.toFixed(0)} ms; run ${cost.crucibleRunMs.toFixed(1)} ms (crucible), ` +
      `${cost.baselineRunMs.toFixed(1)} ms (baseline); per sample: crucible ${(cost.compileMs + TESTS * cost.crucibleRunMs).toFixed(0)} ms = compile + ${TESTS} runs ` +
      `${(TESTS * cost.crucibleRunMs).toFixed(0)} ms; predicted ratio ${cost.predicted.toFixed(1)}x`);
  }
} finally {
  await judge.close();
  await executor.close();
  await sandbox.close();
}
