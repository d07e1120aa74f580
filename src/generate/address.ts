/**
 * Content addresses of generations: a sample is cached under sha256 of (endpoint, model, prompt hash, sampling
 * hash, sample index), so a resumed run finds every sample it already has, and a change of any of these (another
 * model, temperature, stop list, prompt text) never reuses a sample made under other conditions.
 * Hashes are lowercase hex sha256 of canonical JSON (object keys sorted, no white space).
 */
import { createHash } from 'node:crypto';
import type { SamplingParams } from './params.js';
import type { PromptInput } from './prompts/index.js';

/** Version of the addressing scheme, part of every key: a change of scheme never meets old entries. */
export const ADDRESS_VERSION = 'crucible-generation-1';

/** JSON with object keys sorted at every level (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** Lowercase hex sha256 of a string (UTF-8). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Hash of a prompt (API and messages or prompt text). */
export function promptHash(input: PromptInput): string {
  return sha256(canonicalJson(input));
}

/** What decides the sampling besides the prompt: parameters and stop sequences. */
export interface SamplingSpec {
  readonly params: SamplingParams;
  readonly stop: readonly string[];
}

/** Hash of a sampling spec. */
export function samplingHash(spec: SamplingSpec): string {
  return sha256(canonicalJson({ params: spec.params, stop: spec.stop }));
}

/** The normal form of an endpoint URL: scheme and host lower case, no trailing slash, no query. */
export function normalEndpoint(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** Where one sample lives in the cache. */
export interface SampleAddress {
  readonly endpoint: string;
  readonly model: string;
  readonly promptHash: string;
  readonly samplingHash: string;
  readonly sampleIndex: number;
}

/** The cache key of a sample. */
export function cacheKey(address: SampleAddress): string {
  return sha256(JSON.stringify([ADDRESS_VERSION, address.endpoint, address.model, address.promptHash, address.samplingHash, address.sampleIndex]));
}
