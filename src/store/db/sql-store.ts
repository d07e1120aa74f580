/**
 * `ResultStore` over a `SqlDriver`: one implementation for SQLite and PostgreSQL (the conformance suite in
 * test/store/ runs against both). Tables: `migrations.ts`, brought up to date on open by `migrate.ts`; compact
 * rows: `../compact.ts`.
 *
 * Writes go through one promise chain per store object, so a sample batch, a run update and training events
 * never interleave inside a transaction. Per run, task and program numbers are cached after the first use
 * (the store object is the run's only writer; another writer of the same run would be a resume, which opens
 * its own store object and reloads the numbers).
 */
import type { JudgedBy, SampleStatus } from '../../verdict/index.js';
import type { FailedTestDetail, SampleRecord } from '../records.js';
import { decodeColumns, encodeColumns } from '../blob.js';
import { compactCompletion, compactProgram, compactSample, storedFormal, detailColumns, expandCompletion, expandRecord, packTestColumns, programSource, unpackTestColumns, type CompactSample,
  type DetailColumns } from '../compact.js';
import { StoreError } from '../errors.js';
import type {
  EfficiencyRow, NewSignalResult, SignalKind, SignalResultRow, ReasonCountRow, NewRun, ProblemCountsRow, ProblemInfo, ProblemLabels, ResultStore, RunHeadline, TrainingBatchResult, RunFilter, RunListRow, RunProgress, RunRow, RunStatus, SampleDetailRow,
  SampleInput, SampleListRow, StoreBackend, StoreChanges, StoredProblem, StoredTest, TrainingBucketRow,
  TrainingProblemBucketRow, TrainingRunRow, TrainingSeries, ProblemStepRow,
} from '../result-store.js';
import type { TrainingEvent } from '../training-event.js';
import { MAX_PARAMETERS, type SqlDriver, type SqlValue } from './driver.js';
import { migrateStore } from './migrate.js';
import { insertTrainingEvents, trainingSeries } from './training-sql.js';

interface RunCache {
  readonly problems: Map<string, { readonly id: number; readonly prompt: string | null }>;
  readonly programs: Map<string, number>;
  /** Each program's `completion` column by program id (a sample's text is kept only where it differs). */
  readonly programCompletions: Map<number, string | null>;
  nextProgram: number;
  /** Distinct `judgedBy` of the run (JSON) and their numbers. */
  readonly judges: Map<string, number>;
}

/** The key of a distinct `judgedBy` in a run's cache. */
function judgeKey(by: JudgedBy): string {
  return JSON.stringify([by.worker, by.crucibleVersion, by.toolchain]);
}

const RUN_LIST_COLUMNS = `id AS "id", name AS "name", status AS "status", created_ms AS "createdMs", updated_ms AS "updatedMs",
  finished_ms AS "finishedMs", model AS "model", dataset AS "dataset", problems_file AS "problemsFile",
  samples_file AS "samplesFile", format AS "format", problems_hash AS "problemsHash", samples_hash AS "samplesHash",
  crucible_version AS "crucibleVersion", keep_tests AS "keepTests", total_samples AS "totalSamples",
  done_samples AS "doneSamples", passed_samples AS "passedSamples", progress_json AS "progressJson", tags_json AS "tagsJson",
  generation_json AS "generationJson", headline_json AS "headlineJson", content_hash AS "contentHash"`;

/** Columns of `sample_efficiency` (schema.ts `EFFICIENCY_TABLES`), in insert order. */
const EFFICIENCY_COLUMNS = ['run_id', 'task_id', 'sample_index', 'program_hash', 'language', 'cost_unit', 'instructions', 'wall_median_ms',
  'wall_lower_ms', 'wall_upper_ms', 'cpu_median_ms', 'peak_memory_kib', 'dps', 'dps_norm', 'beyond', 'net', 'nmu', 'indistinguishable', 'error',
  'memory_kib_ms', 'ntmu'];

const SIGNAL_COLUMNS = 'id AS "id", kind AS "kind", name AS "name", created_ms AS "createdMs", inputs_json AS "inputsJson", headline_json AS "headlineJson"';
type SignalDb = { id: number; kind: string; name: string; createdMs: number; inputsJson: string; headlineJson: string; resultJson: string | null };

function signalRow(r: SignalDb): SignalResultRow {
  return { id: Number(r.id), kind: r.kind === 'elo' ? 'elo' : 'tests-quality', name: r.name, createdMs: Number(r.createdMs),
    inputs: JSON.parse(r.inputsJson) as Record<string, unknown>, headline: JSON.parse(r.headlineJson) as Record<string, number | string | null>,
    result: r.resultJson === null ? null : JSON.parse(r.resultJson) as unknown };
}

const RUN_COLUMNS = `${RUN_LIST_COLUMNS}, options_json AS "optionsJson", provenance_json AS "provenanceJson", summary_json AS "summaryJson"`;

type RunListDb = Omit<RunListRow, 'progress' | 'problemsFile' | 'samplesFile' | 'format' | 'tags' | 'generation' | 'headline' | 'contentHash'> & {
  progressJson: string | null; problemsFile: string | null; samplesFile: string | null; format: string | null;
  tagsJson: string | null; generationJson: string | null; headlineJson: string | null; contentHash: string | null;
};
type RunDb = RunListDb & { optionsJson: string; provenanceJson: string; summaryJson: string | null };

function parseJson(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}

function listRow(db: RunListDb): RunListRow {
  const { progressJson, problemsFile, samplesFile, format, tagsJson, generationJson, headlineJson, contentHash, ...rest } = db;
  return {
    ...rest,
    ...(problemsFile === null ? {} : { problemsFile }),
    ...(samplesFile === null ? {} : { samplesFile }),
    ...(format === null ? {} : { format }),
    ...(contentHash === null || contentHash === undefined ? {} : { contentHash }),
    progress: (parseJson(progressJson) as RunProgress | undefined) ?? null,
    tags: (parseJson(tagsJson ?? null) as string[] | undefined) ?? [],
    generation: (parseJson(generationJson ?? null) as Record<string, unknown> | undefined) ?? null,
    headline: (parseJson(headlineJson ?? null) as RunHeadline | undefined) ?? null,
  };
}

function runRow(db: RunDb): RunRow {
  const { optionsJson, provenanceJson, summaryJson, ...rest } = db;
  return {
    ...listRow(rest),
    options: JSON.parse(optionsJson) as Record<string, unknown>,
    provenance: JSON.parse(provenanceJson) as Record<string, unknown>,
    summary: parseJson(summaryJson),
  };
}

/** The last input of each (task, sample index) in `samples`, in order: a later verdict replaces an earlier one. */
function lastOfEach(samples: readonly SampleInput[]): SampleInput[] {
  const last = new Map<string, number>();
  samples.forEach((s, i) => last.set(`${s.record.taskId}\0${s.record.sampleIndex}`, i));
  return samples.filter((s, i) => last.get(`${s.record.taskId}\0${s.record.sampleIndex}`) === i);
}

/**
 * Delete the samples `keys` (problem number, sample index) of run `runId`, and who judged them, so that their
 * new rows replace them.
 */
async function dropSamples(tx: SqlDriver, runId: number, keys: readonly (readonly [SqlValue, SqlValue])[]): Promise<void> {
  const perStatement = Math.floor((MAX_PARAMETERS - 1) / 2);
  for (let start = 0; start < keys.length; start += perStatement) {
    const batch = keys.slice(start, start + perStatement);
    // Typed, because PostgreSQL reads the parameters of a VALUES list as text.
    const pairs = batch.map(() => '(CAST(? AS INTEGER), CAST(? AS INTEGER))').join(', ');
    for (const table of ['samples', 'sample_judges']) {
      await tx.run(`DELETE FROM ${table} WHERE run_id = ? AND (problem_id, sample_index) IN (VALUES ${pairs})`, [runId, ...batch.flat()]);
    }
  }
}

/** A LIKE pattern matching text that contains `text` (escaped with `\\`). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function likePattern(text: string): string {
  return containsPattern(text.toLowerCase());
}

/** Tags as stored: trimmed, non-empty, distinct, in first-given order. */
function normalTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
}

/**
 * Bring the store at `driver` to this code's schema (`migrate.ts`: a new database gets every table, an older store
 * the steps it lacks) and wrap it. The driver is closed when this throws.
 * @throws StoreError `store_schema_newer`, `store_migration_failed`, `store_unavailable`.
 */
export async function openSqlStore(driver: SqlDriver, location: string): Promise<ResultStore> {
  try {
    await migrateStore(driver, location);
  } catch (error) {
    await driver.close();
    throw error;
  }
  return new SqlStore(driver, location);
}

class SqlStore implements ResultStore {
  readonly backend: StoreBackend;
  private writes: Promise<unknown> = Promise.resolve();
  private readonly caches = new Map<number, Promise<RunCache>>();

  constructor(private readonly db: SqlDriver, readonly location: string) {
    this.backend = db.dialect;
  }

  /** Run `fn` after every earlier write of this store object. */
  private write<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.writes.then(fn);
    this.writes = next.catch(() => undefined);
    return next;
  }

  private cache(runId: number): Promise<RunCache> {
    let cache = this.caches.get(runId);
    if (cache === undefined) {
      cache = (async () => {
        const problems = await this.db.all<{ id: number; taskId: string; prompt: string | null }>(
          'SELECT problem_id AS "id", task_id AS "taskId", prompt AS "prompt" FROM problems WHERE run_id = ?', [runId]);
        const programs = await this.db.all<{ id: number; hash: string; completion: string | null }>(
          'SELECT program_id AS "id", hash AS "hash", completion AS "completion" FROM programs WHERE run_id = ?', [runId]);
        const judges = await this.db.all<{ id: number; worker: string; crucibleVersion: string; toolchain: string | null }>(
          'SELECT judge_id AS "id", worker AS "worker", crucible_version AS "crucibleVersion", toolchain AS "toolchain" FROM judges WHERE run_id = ?', [runId]);
        return {
          judges: new Map(judges.map((j) => [judgeKey(j), j.id])),
          problems: new Map(problems.map((p) => [p.taskId, { id: p.id, prompt: p.prompt }])),
          programs: new Map(programs.map((p) => [p.hash, p.id])),
          programCompletions: new Map(programs.map((p) => [p.id, p.completion])),
          nextProgram: programs.reduce((m, p) => Math.max(m, p.id + 1), 0),
        };
      })();
      this.caches.set(runId, cache);
      cache.catch(() => this.caches.delete(runId));
    }
    return cache;
  }

  createRun(run: NewRun): Promise<number> {
    return this.write(async () => {
      const now = run.createdMs ?? Date.now();
      const row = await this.db.get<{ id: number }>(
        `INSERT INTO runs (name, status, created_ms, updated_ms, model, dataset, problems_file, samples_file, format,
          problems_hash, samples_hash, crucible_version, options_json, provenance_json, keep_tests, total_samples, tags_json,
          generation_json, content_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id AS "id"`,
        [run.name, run.status ?? 'running', now, now, run.model, run.dataset, run.problemsFile ?? null, run.samplesFile ?? null,
          run.format ?? null, run.problemsHash, run.samplesHash, run.crucibleVersion, JSON.stringify(run.options),
          JSON.stringify(run.provenance), run.keepTests, run.totalSamples, JSON.stringify(normalTags(run.tags ?? [])),
          run.generation === undefined ? null : JSON.stringify(run.generation), run.contentHash ?? null]);
      return row!.id;
    });
  }

  async findRuns(query: Pick<NewRun, 'name' | 'problemsHash' | 'samplesHash'>): Promise<RunRow[]> {
    const rows = await this.db.all<RunDb>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE name = ? AND problems_hash = ? AND samples_hash = ? ORDER BY id DESC`,
      [query.name, query.problemsHash, query.samplesHash]);
    return rows.map(runRow);
  }

  addProblems(runId: number, problems: readonly StoredProblem[]): Promise<void> {
    return this.write(async () => {
      const cache = await this.cache(runId);
      await this.db.transaction((tx) => this.insertProblems(tx, runId, cache, problems));
    });
  }

  private async insertProblems(tx: SqlDriver, runId: number, cache: RunCache, problems: readonly StoredProblem[]): Promise<void> {
    const rows: SqlValue[][] = [];
    for (const p of problems) {
      if (cache.problems.has(p.taskId)) continue;
      const id = cache.problems.size;
      cache.problems.set(p.taskId, { id, prompt: p.prompt ?? null });
      rows.push([runId, id, p.taskId, p.kind, p.prompt ?? null, p.testCount, p.info === undefined ? null : JSON.stringify(p.info),
        p.labels === undefined || Object.keys(p.labels).length === 0 ? null : JSON.stringify(p.labels)]);
    }
    await tx.insertMany('problems', ['run_id', 'problem_id', 'task_id', 'kind', 'prompt', 'test_count', 'info_json', 'labels_json'], rows, true);
  }

  appendSamples(runId: number, appended: readonly SampleInput[], progress?: RunProgress): Promise<void> {
    const samples = lastOfEach(appended);
    return this.write(async () => {
      const run = await this.db.get<{ keepTests: string }>('SELECT keep_tests AS "keepTests" FROM runs WHERE id = ?', [runId]);
      if (run === undefined) throw new StoreError('run_not_found', `${this.location}: no run ${runId}`);
      const keepTests = run.keepTests === 'all' ? 'all' : 'failing';
      const cache = await this.cache(runId);
      // Compress outside the transaction (zlib's thread pool), then write in one transaction.
      const encoded = await Promise.all(samples.map(async (input) => {
        const rows = compactSample(input.record, keepTests);
        const detail = detailColumns(input.failures);
        return {
          input,
          sample: rows.sample,
          tests: rows.tests === null ? null : await encodeColumns(packTestColumns(rows.tests)),
          detail: detail === null ? null : await encodeColumns(detail as unknown as Record<string, (string | number | null)[]>),
        };
      }));
      await this.db.transaction(async (tx) => {
        const unknownProblems = samples.filter((s) => !cache.problems.has(s.record.taskId))
          .map((s) => ({ taskId: s.record.taskId, kind: 'unknown', testCount: s.record.tests.length }));
        await this.insertProblems(tx, runId, cache, unknownProblems);
        const programRows: SqlValue[][] = [];
        const sampleRows: SqlValue[][] = [];
        const judgeRows: SqlValue[][] = [];
        const sampleJudgeRows: SqlValue[][] = [];
        const detailed: { id: number; input: SampleInput; detail: Buffer | null }[] = [];
        for (const { input, sample: s, tests, detail } of encoded) {
          const problem = cache.problems.get(input.record.taskId)!;
          let programId = cache.programs.get(input.record.programHash);
          if (programId === undefined) {
            programId = cache.nextProgram++;
            cache.programs.set(input.record.programHash, programId);
            const p = compactProgram(input.program, problem.prompt ?? undefined);
            cache.programCompletions.set(programId, p.completion);
            programRows.push([runId, programId, input.record.programHash, p.language, p.completion, p.source, p.extraction,
              input.memoryKiB ?? null, input.stderr ?? null, detail]);
          } else if (detail !== null || input.memoryKiB !== undefined || input.stderr !== undefined) {
            detailed.push({ id: programId, input, detail });
          }
          const by = input.record.judgedBy;
          if (by !== undefined) {
            let judgeId = cache.judges.get(judgeKey(by));
            if (judgeId === undefined) {
              judgeId = cache.judges.size;
              cache.judges.set(judgeKey(by), judgeId);
              judgeRows.push([runId, judgeId, by.worker, by.crucibleVersion, by.toolchain]);
            }
            sampleJudgeRows.push([runId, problem.id, input.record.sampleIndex, judgeId]);
          }
          const text = compactCompletion(input.record, cache.programCompletions.get(programId) ?? null);
          sampleRows.push([runId, problem.id, input.record.sampleIndex, programId, s.status, s.passed, s.plusStatus, s.plusPassed,
            s.cpuMs, s.wallMs, s.reason, s.testsRun, s.testsPassed, s.passedRanges, tests, s.score, text.kind, text.text, s.formal]);
        }
        await tx.insertMany('programs', ['run_id', 'program_id', 'hash', 'language', 'completion', 'source', 'extraction_json',
          'memory_kib', 'stderr', 'detail'], programRows, true);
        // A program first stored without detail (resumed, or deduplicated before) gets it from a later sample.
        for (const d of detailed) {
          await tx.run(`UPDATE programs SET detail = COALESCE(detail, ?), memory_kib = COALESCE(memory_kib, ?), stderr = COALESCE(stderr, ?)
            WHERE run_id = ? AND program_id = ?`, [d.detail, d.input.memoryKiB ?? null, d.input.stderr ?? null, runId, d.id]);
        }
        await dropSamples(tx, runId, sampleRows.map((r) => [r[1]!, r[2]!] as const));
        await tx.insertMany('samples', ['run_id', 'problem_id', 'sample_index', 'program_id', 'status', 'passed', 'plus_status',
          'plus_passed', 'cpu_ms', 'wall_ms', 'reason', 'tests_run', 'tests_passed', 'passed_ranges', 'tests', 'score', 'completion_kind', 'completion', 'formal_json'], sampleRows, true);
        await tx.insertMany('judges', ['run_id', 'judge_id', 'worker', 'crucible_version', 'toolchain'], judgeRows, true);
        await tx.insertMany('sample_judges', ['run_id', 'problem_id', 'sample_index', 'judge_id'], sampleJudgeRows, true);
        await tx.run(
          `UPDATE runs SET done_samples = (SELECT COUNT(*) FROM samples WHERE run_id = ?),
             passed_samples = (SELECT COALESCE(SUM(passed), 0) FROM samples WHERE run_id = ?),
             progress_json = COALESCE(?, progress_json), updated_ms = ? WHERE id = ?`,
          [runId, runId, progress === undefined ? null : JSON.stringify(progress), Date.now(), runId]);
      });
    });
  }

  async knownTestCases(problemsHash: string): Promise<Set<string>> {
    const rows = await this.db.all<{ taskId: string }>('SELECT task_id AS "taskId" FROM test_cases WHERE problems_hash = ?', [problemsHash]);
    return new Set(rows.map((r) => r.taskId));
  }

  async addTestCases(problemsHash: string, taskId: string, cases: readonly FailedTestDetail[]): Promise<void> {
    const blob = await encodeColumns({
      index: cases.map((c) => c.index),
      input: cases.map((c) => c.input ?? null),
      expected: cases.map((c) => c.expected ?? null),
      cut: cases.map((c) => {
        const cut = (c.cut ?? []).filter((f) => f === 'input' || f === 'expected');
        return cut.length === 0 ? null : cut.join(',');
      }),
    });
    return this.write(async () => {
      await this.db.run('INSERT INTO test_cases (problems_hash, task_id, cases) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [problemsHash, taskId, blob]);
    });
  }

  finishRun(runId: number, status: RunStatus, summary?: unknown): Promise<void> {
    return this.write(async () => {
      const now = Date.now();
      await this.db.run('UPDATE runs SET status = ?, finished_ms = ?, updated_ms = ?, summary_json = COALESCE(?, summary_json) WHERE id = ?',
        [status, status === 'running' ? null : now, now, summary === undefined ? null : JSON.stringify(summary), runId]);
    });
  }

  addEfficiency(runId: number, rows: readonly EfficiencyRow[]): Promise<void> {
    return this.write(() => this.db.transaction(async (tx) => {
      for (const r of rows) {
        await tx.run('DELETE FROM sample_efficiency WHERE run_id = ? AND task_id = ? AND sample_index = ?', [runId, r.taskId, r.sampleIndex]);
      }
      await tx.insertMany('sample_efficiency', EFFICIENCY_COLUMNS, rows.map((r) => [runId, r.taskId, r.sampleIndex, r.programHash, r.language,
        r.costUnit, r.instructions, r.wallMedianMs, r.wallLowerMs, r.wallUpperMs, r.cpuMedianMs, r.peakMemoryKiB, r.dps, r.dpsNorm, r.beyond,
        r.net, r.nmu, r.indistinguishable === null ? null : Number(r.indistinguishable), r.error, r.memoryKiBMs ?? null, r.ntmu ?? null]), false);
    }));
  }

  addSignalResult(result: NewSignalResult): Promise<number> {
    return this.write(async () => {
      const row = await this.db.get<{ id: number }>(
        'INSERT INTO signal_results (kind, name, created_ms, inputs_json, headline_json, result_json) VALUES (?, ?, ?, ?, ?, ?) RETURNING id AS "id"',
        [result.kind, result.name, result.createdMs ?? Date.now(), JSON.stringify(result.inputs), JSON.stringify(result.headline), JSON.stringify(result.result)]);
      return Number(row!.id);
    });
  }

  async listSignalResults(kind?: SignalKind): Promise<SignalResultRow[]> {
    const rows = await this.db.all<SignalDb>(`SELECT ${SIGNAL_COLUMNS}, NULL AS "resultJson" FROM signal_results${kind === undefined ? '' : ' WHERE kind = ?'}
      ORDER BY created_ms DESC, id DESC`, kind === undefined ? [] : [kind]);
    return rows.map(signalRow);
  }

  async signalResult(id: number): Promise<SignalResultRow | undefined> {
    const row = await this.db.get<SignalDb>(`SELECT ${SIGNAL_COLUMNS}, result_json AS "resultJson" FROM signal_results WHERE id = ?`, [id]);
    return row === undefined ? undefined : signalRow(row);
  }

  async efficiencyOf(runId: number): Promise<EfficiencyRow[]> {
    const rows = await this.db.all<Record<string, SqlValue>>(
      `SELECT ${EFFICIENCY_COLUMNS.slice(1).join(', ')} FROM sample_efficiency WHERE run_id = ? ORDER BY task_id, sample_index`, [runId]);
    const num = (v: SqlValue): number | null => v === null ? null : Number(v);
    return rows.map((r) => ({
      taskId: String(r['task_id']), sampleIndex: Number(r['sample_index']), programHash: String(r['program_hash']), language: String(r['language']),
      costUnit: r['cost_unit'] === 'instructions' || r['cost_unit'] === 'bytecodes' || r['cost_unit'] === 'wallMs' ? r['cost_unit'] : null, instructions: num(r['instructions']!),
      wallMedianMs: Number(r['wall_median_ms']), wallLowerMs: Number(r['wall_lower_ms']), wallUpperMs: Number(r['wall_upper_ms']),
      cpuMedianMs: Number(r['cpu_median_ms']), peakMemoryKiB: Number(r['peak_memory_kib']), dps: num(r['dps']!), dpsNorm: num(r['dps_norm']!),
      beyond: num(r['beyond']!), net: num(r['net']!), nmu: num(r['nmu']!),
      indistinguishable: r['indistinguishable'] === null ? null : Number(r['indistinguishable']) === 1, error: r['error'] === null ? null : String(r['error']),
      memoryKiBMs: num(r['memory_kib_ms']!), ntmu: num(r['ntmu']!),
    }));
  }

  deleteRun(runId: number): Promise<boolean> {
    return this.write(() => this.db.transaction(async (tx) => {
      for (const table of ['sample_judges', 'judges', 'samples', 'programs', 'problems', 'sample_efficiency']) {
        await tx.run(`DELETE FROM ${table} WHERE run_id = ?`, [runId]);
      }
      this.caches.delete(runId);
      return (await tx.run('DELETE FROM runs WHERE id = ?', [runId])) > 0;
    }));
  }

  async listRuns(filter: RunFilter = {}): Promise<RunListRow[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.text !== undefined && filter.text !== '') {
      where.push(`(LOWER(name) LIKE ? ESCAPE '\\' OR LOWER(model) LIKE ? ESCAPE '\\' OR LOWER(dataset) LIKE ? ESCAPE '\\'
        OR LOWER(COALESCE(tags_json, '')) LIKE ? ESCAPE '\\')`);
      const pattern = likePattern(filter.text);
      params.push(pattern, pattern, pattern, pattern);
    }
    for (const [column, value] of [['model', filter.model], ['dataset', filter.dataset]] as const) {
      if (value !== undefined && value !== '') {
        where.push(`LOWER(${column}) LIKE ? ESCAPE '\\'`);
        params.push(likePattern(value));
      }
    }
    if (filter.status !== undefined) {
      where.push('status = ?');
      params.push(filter.status);
    }
    if (filter.tag !== undefined && filter.tag !== '') {
      where.push(`tags_json LIKE ? ESCAPE '\\'`);
      params.push(containsPattern(JSON.stringify(filter.tag.trim())));
    }
    params.push(filter.limit ?? 500);
    const rows = await this.db.all<RunListDb>(
      `SELECT ${RUN_LIST_COLUMNS} FROM runs ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`, params);
    return rows.map(listRow);
  }

  async findDuplicates(query: { readonly contentHash?: string; readonly runDir?: string }): Promise<RunListRow[]> {
    const found: RunListRow[] = [];
    if (query.contentHash !== undefined) {
      const rows = await this.db.all<RunListDb>(`SELECT ${RUN_LIST_COLUMNS} FROM runs WHERE content_hash = ? ORDER BY id`, [query.contentHash]);
      found.push(...rows.map(listRow));
    }
    if (query.runDir !== undefined) {
      // provenance_json is opaque JSON: a substring narrows, the parsed value decides.
      const rows = await this.db.all<RunDb>(`SELECT ${RUN_COLUMNS} FROM runs WHERE provenance_json LIKE ? ESCAPE '\\' ORDER BY id`,
        [containsPattern(JSON.stringify(query.runDir))]);
      for (const r of rows.map(runRow)) {
        if (r.provenance['runDir'] === query.runDir || r.provenance['importedFrom'] === query.runDir) {
          if (!found.some((f) => f.id === r.id)) found.push(r);
        }
      }
    }
    return found;
  }

  labelRun(runId: number, labels: { readonly model?: string; readonly tags?: readonly string[] }): Promise<void> {
    return this.write(async () => {
      const changed = await this.db.run('UPDATE runs SET model = COALESCE(?, model), tags_json = COALESCE(?, tags_json), updated_ms = ? WHERE id = ?',
        [labels.model ?? null, labels.tags === undefined ? null : JSON.stringify(normalTags(labels.tags)), Date.now(), runId]);
      if (changed === 0) throw new StoreError('run_not_found', `${this.location}: no run ${runId}`);
    });
  }

  async problemInfo(runId: number, taskId: string): Promise<ProblemInfo | null> {
    const row = await this.db.get<{ info: string | null; prompt: string | null }>(
      'SELECT info_json AS "info", prompt AS "prompt" FROM problems WHERE run_id = ? AND task_id = ?', [runId, taskId]);
    if (row === undefined) return null;
    const info = parseJson(row.info) as ProblemInfo | undefined;
    if (info === undefined) return row.prompt === null ? null : { prompt: row.prompt };
    return info.prompt === undefined && row.prompt !== null ? { ...info, prompt: row.prompt } : info;
  }

  async getRun(runId: number): Promise<RunRow | undefined> {
    const row = await this.db.get<RunDb>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`, [runId]);
    return row === undefined ? undefined : runRow(row);
  }

  async resolveRun(ref: string): Promise<RunRow> {
    const byId = /^\d+$/.test(ref) ? await this.getRun(Number(ref)) : undefined;
    if (byId !== undefined) return byId;
    const row = await this.db.get<RunDb>(`SELECT ${RUN_COLUMNS} FROM runs WHERE name = ? ORDER BY id DESC LIMIT 1`, [ref]);
    if (row === undefined) throw new StoreError('run_not_found', `${this.location}: no run has id or name "${ref}" (crucible dashboard lists them)`);
    return runRow(row);
  }

  async problemCounts(runId: number): Promise<ProblemCountsRow[]> {
    const rows = await this.db.all<{ problemId: number; taskId: string; kind: string; testCount: number; status: SampleStatus;
      n: number; c: number; plusC: number; withPlus: number; scored: number; scoreSum: number | null; labels: string | null }>(
      `SELECT p.problem_id AS "problemId", p.task_id AS "taskId", p.kind AS "kind", p.test_count AS "testCount", s.status AS "status",
         p.labels_json AS "labels",
         COUNT(*) AS "n", SUM(s.passed) AS "c", SUM(COALESCE(s.plus_passed, 0)) AS "plusC",
         SUM(CASE WHEN s.plus_status IS NULL THEN 0 ELSE 1 END) AS "withPlus", COUNT(s.score) AS "scored", SUM(s.score) AS "scoreSum"
       FROM samples s JOIN problems p ON p.run_id = s.run_id AND p.problem_id = s.problem_id
       WHERE s.run_id = ? GROUP BY p.problem_id, p.task_id, p.kind, p.test_count, p.labels_json, s.status ORDER BY p.problem_id`, [runId]);
    const byProblem = new Map<number, { taskId: string; kind: string; testCount: number; n: number; c: number; plusC: number; hasPlus: boolean;
      scored: number; scoreSum: number; statuses: Partial<Record<SampleStatus, number>>; labels: ProblemLabels }>();
    for (const r of rows) {
      let p = byProblem.get(r.problemId);
      if (p === undefined) {
        p = { taskId: r.taskId, kind: r.kind, testCount: r.testCount, n: 0, c: 0, plusC: 0, hasPlus: false, scored: 0, scoreSum: 0, statuses: {},
          labels: (parseJson(r.labels) as ProblemLabels | undefined) ?? {} };
        byProblem.set(r.problemId, p);
      }
      p.n += r.n;
      p.c += r.c;
      p.plusC += r.plusC;
      p.hasPlus ||= r.withPlus > 0;
      p.scored += r.scored;
      p.scoreSum += r.scoreSum ?? 0;
      p.statuses[r.status] = r.n;
    }
    return [...byProblem.values()];
  }

  async reasonCounts(runId: number, limit = 20): Promise<ReasonCountRow[]> {
    const rows = await this.db.all<{ status: SampleStatus; reason: string | null; samples: number; problems: number; problemId: number; sampleIndex: number }>(
      `SELECT g.status AS "status", g.reason AS "reason", g.samples AS "samples", g.problems AS "problems", g.problem_id AS "problemId",
         MIN(s.sample_index) AS "sampleIndex"
       FROM (SELECT status, reason, COUNT(*) AS samples, COUNT(DISTINCT problem_id) AS problems, MIN(problem_id) AS problem_id
             FROM samples WHERE run_id = ? AND passed = 0 GROUP BY status, reason ORDER BY 3 DESC, 1, 2 LIMIT ?) g
       JOIN samples s ON s.run_id = ? AND s.problem_id = g.problem_id AND s.status = g.status
         AND (s.reason = g.reason OR (s.reason IS NULL AND g.reason IS NULL))
       GROUP BY g.status, g.reason, g.samples, g.problems, g.problem_id ORDER BY 3 DESC, 1, 2`, [runId, limit, runId]);
    const tasks = new Map((await this.db.all<{ id: number; taskId: string }>('SELECT problem_id AS "id", task_id AS "taskId" FROM problems WHERE run_id = ?',
      [runId])).map((p) => [p.id, p.taskId]));
    return rows.map((r) => ({ status: r.status, reason: r.reason, samples: r.samples, problems: r.problems,
      example: { taskId: tasks.get(r.problemId) ?? '', sampleIndex: r.sampleIndex } }));
  }

  private static readonly SAMPLE_COLUMNS = `s.sample_index AS "sampleIndex", s.status AS "status", s.passed AS "passed",
    s.plus_status AS "plusStatus", s.plus_passed AS "plusPassed", s.cpu_ms AS "cpuMs", s.wall_ms AS "wallMs",
    g.memory_kib AS "memoryKiB", s.tests_run AS "testsRun", s.tests_passed AS "testsPassed", s.reason AS "reason",
    s.score AS "score", g.hash AS "programHash"`;

  private static sampleListRow(r: Omit<SampleListRow, 'passed' | 'plusPassed'> & { passed: number; plusPassed: number | null }): SampleListRow {
    return { ...r, passed: r.passed === 1, plusPassed: r.plusPassed === null ? null : r.plusPassed === 1 };
  }

  async samplesOf(runId: number, taskId: string): Promise<SampleListRow[]> {
    const rows = await this.db.all<Omit<SampleListRow, 'passed' | 'plusPassed'> & { passed: number; plusPassed: number | null }>(
      `SELECT ${SqlStore.SAMPLE_COLUMNS}
       FROM samples s JOIN problems p ON p.run_id = s.run_id AND p.problem_id = s.problem_id
         JOIN programs g ON g.run_id = s.run_id AND g.program_id = s.program_id
       WHERE s.run_id = ? AND p.task_id = ? ORDER BY s.sample_index`, [runId, taskId]);
    return rows.map(SqlStore.sampleListRow);
  }

  async sample(runId: number, taskId: string, sampleIndex: number): Promise<SampleDetailRow | undefined> {
    const row = await this.db.get<Omit<SampleListRow, 'passed' | 'plusPassed'> & { passed: number; plusPassed: number | null;
      problemKind: string; testCount: number; prompt: string | null; language: string | null; completion: string | null;
      source: string | null; extractionJson: string | null; stderr: string | null; passedRanges: string; tests: Uint8Array | null;
      detail: Uint8Array | null; problemsHash: string; formalJson: string | null }>(
      `SELECT ${SqlStore.SAMPLE_COLUMNS}, p.kind AS "problemKind", p.test_count AS "testCount",
         p.prompt AS "prompt", g.language AS "language", g.completion AS "completion", g.source AS "source",
         g.extraction_json AS "extractionJson", g.stderr AS "stderr", s.passed_ranges AS "passedRanges", s.tests AS "tests",
         g.detail AS "detail", r.problems_hash AS "problemsHash", s.formal_json AS "formalJson"
       FROM samples s JOIN problems p ON p.run_id = s.run_id AND p.problem_id = s.problem_id
         JOIN programs g ON g.run_id = s.run_id AND g.program_id = s.program_id
         JOIN runs r ON r.id = s.run_id
       WHERE s.run_id = ? AND p.task_id = ? AND s.sample_index = ?`, [runId, taskId, sampleIndex]);
    if (row === undefined) return undefined;
    const kept = row.tests === null ? null : unpackTestColumns(await decodeColumns(row.tests));
    const detail = row.detail === null ? null : await decodeColumns(row.detail) as unknown as DetailColumns;
    const cases = new Map<number, { input: string | null; expected: string | null; cut: string | null }>();
    const stored = await this.db.get<{ cases: Uint8Array }>('SELECT cases AS "cases" FROM test_cases WHERE problems_hash = ? AND task_id = ?',
      [row.problemsHash, taskId]);
    if (stored !== undefined && kept !== null) {
      const c = await decodeColumns(stored.cases);
      (c['index'] ?? []).forEach((index, i) => cases.set(Number(index), {
        input: (c['input']?.[i] ?? null) as string | null, expected: (c['expected']?.[i] ?? null) as string | null, cut: (c['cut']?.[i] ?? null) as string | null,
      }));
    }
    const shown = new Map<number, number>((detail?.index ?? []).map((index, i) => [index, i]));
    const tests: StoredTest[] = (kept?.index ?? []).map((index, i) => {
      const d = shown.get(index);
      const c = cases.get(index);
      const cut = [d === undefined ? null : detail!.cut[d] ?? null, c?.cut ?? null].filter((x): x is string => x !== null).flatMap((x) => x.split(','));
      return {
        index,
        status: kept!.status[i]!,
        cpuMs: kept!.cpuMs[i] ?? null,
        wallMs: kept!.wallMs[i] ?? null,
        reason: kept!.reason[i] ?? null,
        score: kept!.score[i] ?? null,
        input: c?.input ?? null,
        expected: c?.expected ?? null,
        actual: d === undefined ? null : detail!.actual[d] ?? null,
        stderr: d === undefined ? null : detail!.stderr[d] ?? null,
        cut,
      };
    });
    const { prompt, extractionJson, tests: _tests, detail: _detail, problemsHash: _hash, formalJson, ...rest } = row;
    return {
      ...SqlStore.sampleListRow(rest),
      taskId,
      problemKind: row.problemKind,
      testCount: row.testCount,
      language: row.language,
      completion: row.completion,
      source: programSource(row, prompt),
      extraction: parseJson(extractionJson),
      stderr: row.stderr,
      passedRanges: row.passedRanges,
      tests,
      formal: formalJson === null || formalJson === undefined ? null : storedFormal(formalJson),
    };
  }

  async taskIds(runId: number): Promise<string[]> {
    const rows = await this.db.all<{ taskId: string }>('SELECT task_id AS "taskId" FROM problems WHERE run_id = ? ORDER BY problem_id', [runId]);
    return rows.map((r) => r.taskId);
  }

  async records(runId: number, options: { readonly taskId?: string; readonly tests?: boolean } = {}): Promise<SampleRecord[]> {
    const byTask = options.taskId === undefined ? '' : ' AND p.task_id = ?';
    const params: SqlValue[] = options.taskId === undefined ? [runId] : [runId, options.taskId];
    const withTests = options.tests !== false;
    const samples = await this.db.all<CompactSample & { taskId: string; sampleIndex: number; programHash: string; tests: Uint8Array | null }
      & { worker: string | null; crucibleVersion: string | null; toolchain: string | null }
      & { completionKind: number | null; sampleCompletion: string | null; programCompletion: string | null }>(
      `SELECT p.task_id AS "taskId", s.sample_index AS "sampleIndex", g.hash AS "programHash",
         j.worker AS "worker", j.crucible_version AS "crucibleVersion", j.toolchain AS "toolchain",
         s.status AS "status", s.passed AS "passed", s.plus_status AS "plusStatus", s.plus_passed AS "plusPassed", s.cpu_ms AS "cpuMs",
         s.wall_ms AS "wallMs", s.reason AS "reason", s.tests_run AS "testsRun", s.tests_passed AS "testsPassed",
         s.passed_ranges AS "passedRanges", s.score AS "score", s.formal_json AS "formal", s.completion_kind AS "completionKind", s.completion AS "sampleCompletion",
         g.completion AS "programCompletion"${withTests ? ', s.tests AS "tests"' : ''}
       FROM samples s JOIN problems p ON p.run_id = s.run_id AND p.problem_id = s.problem_id
         JOIN programs g ON g.run_id = s.run_id AND g.program_id = s.program_id
         LEFT JOIN sample_judges sj ON sj.run_id = s.run_id AND sj.problem_id = s.problem_id AND sj.sample_index = s.sample_index
         LEFT JOIN judges j ON j.run_id = sj.run_id AND j.judge_id = sj.judge_id
       WHERE s.run_id = ?${byTask} ORDER BY s.problem_id, s.sample_index`, params);
    return Promise.all(samples.map(async (s) => {
      const judgedBy = s.worker === null || s.worker === undefined ? {}
        : { judgedBy: { worker: s.worker, crucibleVersion: s.crucibleVersion ?? '', toolchain: s.toolchain ?? null } };
      const text = expandCompletion({ kind: s.completionKind, text: s.sampleCompletion }, s.programCompletion);
      if (!withTests) return { ...expandRecord(s.taskId, s.sampleIndex, s.programHash, { ...s, passedRanges: '' }, null), tests: [], ...judgedBy, ...text };
      const columns = s.tests === null || s.tests === undefined ? null : unpackTestColumns(await decodeColumns(s.tests));
      return { ...expandRecord(s.taskId, s.sampleIndex, s.programHash, s, columns), ...judgedBy, ...text };
    }));
  }

  async cachedAnalysis(runId: number): Promise<{ readonly done: number; readonly analysis: unknown } | undefined> {
    const row = await this.db.get<{ done: number | null; json: string | null }>(
      'SELECT analysis_done AS "done", analysis_json AS "json" FROM runs WHERE id = ?', [runId]);
    if (row === undefined || row.done === null || row.json === null) return undefined;
    return { done: row.done, analysis: JSON.parse(row.json) };
  }

  saveAnalysis(runId: number, done: number, analysis: unknown, headline?: RunHeadline): Promise<void> {
    return this.write(async () => {
      await this.db.run('UPDATE runs SET analysis_json = ?, analysis_done = ?, headline_json = COALESCE(?, headline_json) WHERE id = ?',
        [JSON.stringify(analysis), done, headline === undefined ? null : JSON.stringify(headline), runId]);
    });
  }

  async recordTrainingEvents(name: string, events: readonly TrainingEvent[]): Promise<number> {
    return (await this.recordTrainingBatch(name, events)).trainingRunId;
  }

  recordTrainingBatch(name: string, events: readonly TrainingEvent[]): Promise<TrainingBatchResult> {
    return this.write(() => this.db.transaction((tx) => insertTrainingEvents(tx, name, events)));
  }

  private static readonly TRAINING_COLUMNS = `id AS "id", name AS "name", created_ms AS "createdMs", updated_ms AS "updatedMs",
    events AS "events", config_json AS "configJson"`;

  private static trainingRow(r: Omit<TrainingRunRow, 'config'> & { configJson: string | null }): TrainingRunRow {
    const { configJson, ...rest } = r;
    return { ...rest, config: parseJson(configJson) };
  }

  async listTrainingRuns(): Promise<TrainingRunRow[]> {
    const rows = await this.db.all<Omit<TrainingRunRow, 'config'> & { configJson: string | null }>(
      `SELECT ${SqlStore.TRAINING_COLUMNS} FROM training_runs ORDER BY id DESC`);
    return rows.map(SqlStore.trainingRow);
  }

  async getTrainingRun(idOrName: string): Promise<TrainingRunRow | undefined> {
    const row = /^\d+$/.test(idOrName)
      ? await this.db.get<Omit<TrainingRunRow, 'config'> & { configJson: string | null }>(
        `SELECT ${SqlStore.TRAINING_COLUMNS} FROM training_runs WHERE id = ?`, [Number(idOrName)])
      : undefined;
    const byName = row ?? await this.db.get<Omit<TrainingRunRow, 'config'> & { configJson: string | null }>(
      `SELECT ${SqlStore.TRAINING_COLUMNS} FROM training_runs WHERE name = ?`, [idOrName]);
    return byName === undefined ? undefined : SqlStore.trainingRow(byName);
  }

  trainingSeries(trainingRunId: number): Promise<TrainingSeries> {
    return trainingSeries(this.db, trainingRunId);
  }

  async problemSteps(trainingRunId: number, taskIds?: readonly string[]): Promise<ProblemStepRow[]> {
    const columns = `task_id AS "taskId", step AS "step", rollouts AS "rollouts", passed AS "passed", reward_sum AS "rewardSum"`;
    const rows: ProblemStepRow[] = [];
    if (taskIds === undefined) {
      rows.push(...await this.db.all<ProblemStepRow>(`SELECT ${columns} FROM problem_steps WHERE training_run_id = ?`, [trainingRunId]));
    }
    const ids = [...new Set(taskIds ?? [])];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      rows.push(...await this.db.all<ProblemStepRow>(`SELECT ${columns} FROM problem_steps WHERE training_run_id = ? AND task_id IN (${
        chunk.map(() => '?').join(', ')})`, [trainingRunId, ...chunk]));
    }
    // Sorted here: the engines' text orders differ (SQLite bytes, PostgreSQL the collation).
    return rows.sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : a.step - b.step));
  }

  async changesSince(sinceMs: number): Promise<StoreChanges> {
    const runs = await this.db.all<RunListDb>(`SELECT ${RUN_LIST_COLUMNS} FROM runs WHERE updated_ms > ? ORDER BY id`, [sinceMs]);
    const training = await this.db.all<Omit<TrainingRunRow, 'config'> & { configJson: string | null }>(
      `SELECT ${SqlStore.TRAINING_COLUMNS} FROM training_runs WHERE updated_ms > ? ORDER BY id`, [sinceMs]);
    return { runs: runs.map(listRow), training: training.map(SqlStore.trainingRow) };
  }

  async close(): Promise<void> {
    await this.writes;
    await this.db.close();
  }
}

