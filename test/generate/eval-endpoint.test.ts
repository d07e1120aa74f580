/**
 * `crucible eval --endpoint` end to end (the real CLI, the loopback mock server, real programs in the sandbox):
 * samples are generated and judged in one run; a sample without text is `no_code` with its finish reason; a
 * sample whose generation failed is `internal_error` and is asked for again (and judged) when the eval is
 * resumed; chat answers with `<think>` and fences are extracted (the raw answer kept in the store); the store holds the run with the model's name,
 * the responses, the prompts and every generated sample; the run directory gets the samples file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { PROJECT_ROOT } from '../../src/paths.js';
import type { SampleRecord } from '../../src/store/records.js';
import { HUMANEVAL } from '../support/data.js';
import { startMockOpenAI, type MockServer } from '../support/mock-openai.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-eval-endpoint-'));
const mocks: MockServer[] = [];
after(async () => {
  for (const m of mocks) await m.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome { code: number; stdout: string; stderr: string }

function crucible(args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(join(PROJECT_ROOT, 'bin', 'crucible'), args, { maxBuffer: 64 << 20, env: { ...process.env, CRUCIBLE_CACHE_DIR: join(dir, 'cache') } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

interface HumanEvalRow { task_id: string; prompt: string; canonical_solution: string }
const ROWS = gunzipSync(readFileSync(HUMANEVAL)).toString('utf8').split('\n').slice(0, 3).map((l) => JSON.parse(l) as HumanEvalRow);
const PROBLEMS = join(dir, 'he3.jsonl');
writeFileSync(PROBLEMS, ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
const rowOf = (text: string): HumanEvalRow => ROWS.find((r) => text.includes(r.prompt.trim()))!;

function verdicts(out: string): SampleRecord[] {
  return readFileSync(join(out, 'verdicts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SampleRecord)
    .sort((a, b) => a.taskId.localeCompare(b.taskId) || a.sampleIndex - b.sampleIndex);
}

describe('crucible eval --endpoint', () => {
  it('generates and judges in one run; no text is no_code; a failed generation is internal_error, generated and judged on resume', async () => {
    let down = true;
    const server = await startMockOpenAI({
      // Sample 0 of each task is the canonical solution, 1 a wrong one, 2 came back without text (out of tokens).
      respond: (request, seed) => (seed === 5 ? { content: `\n${rowOf(request.promptText).canonical_solution}` }
        : seed === 6 ? { content: '\n    return None\n' } : { content: null, finishReason: 'length' }),
      fault: (request) => (down && request.promptText.includes(ROWS[2]!.prompt.trim()) ? { kind: 'status', status: 500 } : undefined),
    });
    mocks.push(server);
    const out = join(dir, 'run');
    const store = join(dir, 'store.db');
    const args = ['eval', '--endpoint', server.url, '--model', 'tiny-coder', '--problems', PROBLEMS, '--n', '3', '--temperature', '0.8',
      '--sampling-seed', '5', '--retries', '1', '--retry-base', '0.01', '--out', out, '--store', store, '--json', '--no-progress', '--jobs', '2',
      '--k', '1', '--reps', '50'];
    const first = await crucible(args);
    assert.equal(first.code, 1, first.stderr);
    const summary = JSON.parse(first.stdout) as { countsByStatus: Record<string, number>; generation: { stats: { failed: number; nullContent: number } } };
    assert.deepEqual(summary.countsByStatus, { passed: 2, wrong_answer: 2, no_code: 2, internal_error: 3 });
    assert.deepEqual([summary.generation.stats.failed, summary.generation.stats.nullContent], [3, 2]);
    const broken = verdicts(out).filter((r) => r.status === 'internal_error');
    assert.ok(broken.every((r) => r.taskId === ROWS[2]!.task_id && /generation failed after 2 attempt\(s\): server_error: HTTP 500/.test(r.reason ?? '')));
    const noCode = verdicts(out).find((r) => r.status === 'no_code')!;
    assert.equal(noCode.reason, 'the model returned no text (finish_reason length)');

    down = false;
    const requests = server.requests.length;
    const second = await crucible(args);
    assert.equal(second.code, 0, second.stderr);
    const resumed = JSON.parse(second.stdout) as { countsByStatus: Record<string, number>; judged: number; resumed: number;
      generation: { stats: { fromCache: number; generated: number } } };
    assert.deepEqual(resumed.countsByStatus, { passed: 3, wrong_answer: 3, no_code: 3 });
    assert.deepEqual([resumed.judged, resumed.resumed], [3, 6]);
    assert.deepEqual([resumed.generation.stats.fromCache, resumed.generation.stats.generated], [6, 3]);
    assert.equal(server.requests.length, requests + 1, 'only the failed task was asked for again');
    assert.equal(readFileSync(join(out, 'samples.jsonl'), 'utf8').trim().split('\n').length, 9);

    const db = new Database(store, { readonly: true });
    try {
      const run = db.prepare('SELECT id, model, status, samples_file AS samplesFile FROM runs').all() as { id: number; model: string; status: string; samplesFile: string }[];
      assert.deepEqual(run.map((r) => [r.model, r.status, r.samplesFile]), [['tiny-coder', 'finished', `${server.url} tiny-coder`]]);
      assert.equal((db.prepare('SELECT count(*) AS n FROM generation_samples').get() as { n: number }).n, 9);
      const prompts = db.prepare('SELECT api, prompt_json AS prompt FROM generation_prompts').all() as { api: string; prompt: string }[];
      assert.deepEqual(prompts.map((p) => p.api), ['completions', 'completions', 'completions']);
      assert.ok(prompts.some((p) => (JSON.parse(p.prompt) as { prompt: string }).prompt === ROWS[0]!.prompt.trim()));
      const completions = db.prepare('SELECT completion FROM programs WHERE run_id = ?').all(run[0]!.id) as { completion: string | null }[];
      assert.ok(completions.some((c) => c.completion === '\n    return None\n'), 'the model\'s text is in the store');
    } finally {
      db.close();
    }
  });

  it('judges chat answers (thinking, fences) as they arrive', async () => {
    const server = await startMockOpenAI({
      respond: (request) => {
        const row = rowOf(request.promptText);
        return { content: `<think>maybe\n\`\`\`python\ndef wrong(): pass\n\`\`\`\n</think>Here it is:\n\`\`\`python\n${row.prompt}${row.canonical_solution}\`\`\`\n`,
          reasoning: null };
      },
    });
    mocks.push(server);
    const out = join(dir, 'chat');
    const result = await crucible(['eval', '--endpoint', server.url, '--model', 'chatty', '--chat', '--problems', PROBLEMS, '--n', '2',
      '--temperature', '0', '--out', out, '--store', join(dir, 'chat.db'), '--json', '--no-progress', '--jobs', '2', '--k', '1', '--reps', '50']);
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as { countsByStatus: Record<string, number>; generation: { provenance: { promptStyles: Record<string, number> } } };
    assert.deepEqual(summary.countsByStatus, { passed: 6 });
    assert.deepEqual(summary.generation.provenance.promptStyles, { 'evalplus-instruct (chat)': 3 });
    assert.ok(server.requests.every((r) => r.api === 'chat'));
    const db = new Database(join(dir, 'chat.db'), { readonly: true });
    try {
      const kept = db.prepare('SELECT completion, source FROM programs').all() as { completion: string; source: string }[];
      assert.ok(kept.length > 0 && kept.every((p) => p.completion.startsWith('<think>maybe') && !p.source.includes('<think>')),
        'the raw answer is kept beside the program extracted from it');
    } finally {
      db.close();
    }
  });
});
