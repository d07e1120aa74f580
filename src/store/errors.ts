/**
 * The result store's error catalog: every failure the store reports has a stable code, and each code is
 * documented in docs/STORE.md ("Errors"); `test/store/errors.test.ts` keeps the two in step.
 */

/** Stable codes of `StoreError`. */
export const STORE_ERROR_CODES = {
  store_unavailable: 'the store cannot be opened or reached (file not writable, server down, bad URL)',
  store_schema_newer: 'the store was written by a newer Crucible (its schema version is higher than this one reads)',
  store_migration_failed: 'a step of bringing an older store to this schema failed (the store is left as it was)',
  run_not_found: 'no run has this id or name',
  import_failed: 'a run directory cannot be imported (unreadable or malformed file, named with its line)',
  duplicate_import: 'the run directory is in the store already (the same verdicts.jsonl, or the run its eval wrote); --allow-duplicate imports it again',
  export_failed: 'a run cannot be exported (the target folder already holds a run)',
  invalid_event: 'a training event does not match the schema (the field is named)',
} as const;

/** A code of the catalog. */
export type StoreErrorCode = keyof typeof STORE_ERROR_CODES;

/** An error of the result store, with a stable `code` from `STORE_ERROR_CODES` and a message saying what and where. */
export class StoreError extends Error {
  constructor(readonly code: StoreErrorCode, message: string) {
    super(message);
    this.name = 'StoreError';
  }
}
