import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { buildReportData } from '../../src/report/build.js';
import { renderHtml } from '../../src/report/html.js';
import { loadRun } from '../../src/report/load-run.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderRunReport } from '../../src/report/render.js';
import { record, tinyRecords, writeRunDir } from './fixtures.js';

test('report data: counts, curve and per-problem rows', async () => {
  const dir = await writeRunDir(tinyRecords());
  try {
    const data = buildReportData(await loadRun(dir), { reps: 300 });
    assert.equal(data.base.numProblems, 3);
    assert.equal(data.base.numSamples, 12);
    assert.equal(data.base.numCorrect, 6);
    assert.deepEqual(data.base.points.map((p) => p.k), [1, 2, 3, 4]);
    // pass@1 = (1 + 0.5 + 0)/3; pass@2 = (1 + (1 − C(2,2)/C(4,2)) + 0)/3 = (1 + 5/6)/3
    assert.ok(Math.abs(data.base.points[0]!.passAtK - 0.5) < 1e-12);
    assert.ok(Math.abs(data.base.points[1]!.passAtK - (1 + 5 / 6) / 3) < 1e-12);
    assert.deepEqual(data.headlineKs, [1, 2]);
    assert.ok(data.plus !== undefined);
    assert.ok(Math.abs(data.plus.points[0]!.passAtK - (3 / 4 + 1 / 4 + 0) / 3) < 1e-12);
    const counts = Object.fromEntries(data.verdictCounts.map((v) => [v.status, v.count]));
    assert.equal(counts['passed'], 6);
    assert.equal(counts['wrong_answer'], 3);
    assert.equal(counts['internal_error'], 0);
    assert.deepEqual(
      data.problems.map((p) => [p.taskId, p.n, p.c, p.plusC]),
      [
        ['HumanEval/0', 4, 4, 3],
        ['HumanEval/1', 4, 2, 1],
        ['HumanEval/2', 4, 0, 0],
      ],
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('markdown: summary with CIs, curve, verdicts, hardest problem first', async () => {
  const dir = await writeRunDir(tinyRecords());
  try {
    const md = renderMarkdown(buildReportData(await loadRun(dir), { reps: 300 }));
    assert.match(md, /\| tests \| pass@1 \| pass@2 \|/);
    assert.match(md, /\| base \| 50\.00 \[\d+\.\d\d, \d+\.\d\d\] \|/);
    assert.match(md, /\| base \+ plus \| 33\.33 /);
    assert.match(md, /\| time_limit_exceeded \| 1 \|/);
    assert.ok(md.indexOf('| HumanEval/2 |') < md.indexOf('| HumanEval/0 |'));
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('HTML: self-contained, with inline SVG charts and a sortable table', async () => {
  const dir = await writeRunDir(tinyRecords());
  try {
    const html = await renderRunReport(dir, 'html', { reps: 300 });
    assert.ok(html.startsWith('<!DOCTYPE html>'));
    assert.equal(html.match(/<svg/g)?.length, 2);
    assert.doesNotMatch(html, /https?:\/\//);
    assert.doesNotMatch(html, /<script[^>]*\bsrc=/);
    assert.doesNotMatch(html, /<link\b/);
    assert.match(html, /<table class="sortable"/);
    assert.match(html, /<th data-type="number">pass rate \(%\)<\/th>/);
    assert.match(html, /50\.00 \[/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('HTML escapes task ids', async () => {
  const dir = await writeRunDir([record('<img onerror=x>', 0, 'passed'), record('<img onerror=x>', 1, 'wrong_answer')]);
  try {
    const html = await renderHtml(buildReportData(await loadRun(dir), { reps: 50 }));
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img onerror=x&gt;/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('markdown report through renderRunReport; a run without plus results has no plus row', async () => {
  const dir = await writeRunDir(tinyRecords().map(({ plusPassed: _ignored, ...r }) => r));
  try {
    const md = await renderRunReport(dir, 'md', { reps: 100 });
    assert.doesNotMatch(md, /base \+ plus/);
    assert.match(md, /seed \d+/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('report data: the bootstrap settings the run records, unless others are given', async () => {
  const dir = await writeRunDir(tinyRecords(), undefined, { bootstrap: { reps: 300, seed: 7, confidence: 0.9, method: 'percentile', twoLevel: false } });
  try {
    const run = await loadRun(dir);
    const recorded = buildReportData(run);
    assert.deepEqual([recorded.base.bootstrap.reps, recorded.base.bootstrap.seed, recorded.base.bootstrap.confidence], [300, 7, 0.9]);
    assert.deepEqual(recorded.base, buildReportData({ ...run, summary: undefined }, { reps: 300, seed: 7, confidence: 0.9 }).base);
    const given = buildReportData(run, { seed: 8 });
    assert.deepEqual([given.base.bootstrap.reps, given.base.bootstrap.seed], [300, 8], 'a flag overrides only its own setting');
  } finally {
    await rm(dir, { recursive: true });
  }
});
