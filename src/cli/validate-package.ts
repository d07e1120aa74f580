/**
 * `crucible validate-package DIR`: judge a Kattis problem package's own labelled submissions and report which
 * disagree with their label (src/apps/validate-package.ts). Exit status 0 when every judged submission agrees, 1
 * when one disagrees or Crucible failed on one, 2 for a package that cannot be read.
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { createJudge } from '../engine/factory.js';
import { DatasetError } from '../formats/index.js';
import { validatePackage, type PackageValidation, type SubmissionCheck } from '../apps/validate-package.js';
import { registerUserError } from './errors.js';
import { parsePositiveInt, UNSAFE_NO_SANDBOX_HELP } from './options.js';

registerUserError(DatasetError);

interface ValidateFlags {
  readonly json?: boolean;
  readonly jobs?: number;
  readonly unsafeNoSandbox?: boolean;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 2)} s`;

/** One line of the report. */
function line(c: SubmissionCheck, scoring: boolean): string {
  const mark = c.agrees === null ? 'skipped ' : c.agrees ? 'agrees  ' : 'DISAGREES';
  const result = c.result === undefined ? '' : `${c.result.verdict}${scoring ? ` (score ${c.result.score})` : ''}, ${seconds(c.result.runtimeMs)}`;
  const margin = c.resultAtMargin !== undefined && c.result !== undefined && c.resultAtMargin.verdict !== c.result.verdict
    ? `; at the margin ${c.resultAtMargin.verdict}` : '';
  const why = c.note ?? (c.agrees === false && c.verdict?.reason ? c.verdict.reason : undefined);
  return `  ${mark}  ${c.path}${c.language ? ` [${c.language}]` : ''}: ${result}${margin}${why ? ` — ${why}` : ''}\n`;
}

/** The human report. */
function report(v: PackageValidation): string {
  const timing = v.timeLimitFrom === 'problem.yaml' ? `time limit ${seconds(v.timeLimitMs)} (problem.yaml)`
    : `slowest accepted ${v.slowestAcceptedMs === undefined ? '-' : seconds(v.slowestAcceptedMs)} -> time limit ${seconds(v.timeLimitMs)}`;
  const lines = [`${v.taskId}: ${timing}, safety margin ${seconds(v.marginMs)}${v.timelimitFileMs === undefined ? ''
    : ` (.timelimit says ${seconds(v.timelimitFileMs)}; not used, as problemtools)`}\n`];
  for (const c of v.submissions) lines.push(line(c, v.scoring));
  if (v.unlabelled.length > 0) lines.push(`  not labels, not judged: submissions/${v.unlabelled.join(', submissions/')}\n`);
  const judged = v.submissions.filter((c) => c.agrees !== null);
  const disagree = judged.filter((c) => c.agrees === false);
  lines.push(`${judged.length - disagree.length}/${judged.length} judged submissions agree with their label`
    + `${disagree.length > 0 ? `; disagree: ${disagree.map((c) => c.path).join(', ')}` : ''}\n`);
  return lines.join('');
}

/** Add `validate-package` to the program. */
export function register(program: Command): void {
  program.command('validate-package')
    .description('judge a Kattis problem package\'s own labelled submissions (submissions/accepted, wrong_answer, ...) and report which disagree with their label')
    .argument('<dir>', 'the problem package (the directory with problem.yaml)')
    .option('--json', 'print the report as one JSON object')
    .option('--jobs <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .action(async (dir: string, flags: ValidateFlags) => {
      const judge = createJudge({ slots: flags.jobs ?? availableParallelism(), unsafeNoSandbox: flags.unsafeNoSandbox === true, cacheDir: null });
      try {
        const validation = await validatePackage(judge, dir);
        process.stdout.write(flags.json ? `${JSON.stringify(validation)}\n` : report(validation));
        if (validation.submissions.some((c) => c.agrees === false || (c.agrees === null && c.note?.startsWith('Crucible failed')))) process.exitCode = 1;
      } finally {
        await judge.close();
      }
    });
}
