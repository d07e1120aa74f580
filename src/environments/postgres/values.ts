/**
 * PostgreSQL result cells (text format, as the server sends them) in the SQL kind's value model
 * (`src/kinds/sql/values.ts`, wire form), so the same comparators judge both engines. By type OID (`pg_type.h`):
 * `bool` is the int 1 or 0 (SQLite has no booleans and stores them so); `int2`/`int4`/`int8`/`oid` ints (exact);
 * `float4`/`float8` reals (`NaN`, `Infinity`, `-Infinity` included); `numeric` an int when it is integral and
 * written without a fraction, else the nearest real (a documented difference: psycopg would give Python a
 * `Decimal`, which compares exactly); `bytea` a blob (the `\x` hex form); every other type the text the server
 * writes (dates, times, json, arrays, ...), as SQLite keeps such values.
 */
import { toWire, type SqlValue, type WireValue } from '../../kinds/sql/values.js';

const BOOL = 16;
const BYTEA = 17;
const INT8 = 20;
const INT2 = 21;
const INT4 = 23;
const OID = 26;
const FLOAT4 = 700;
const FLOAT8 = 701;
const NUMERIC = 1700;

function realOf(text: string): SqlValue {
  const v = text === 'NaN' ? NaN : text === 'Infinity' ? Infinity : text === '-Infinity' ? -Infinity : Number(text);
  return { t: 'real', v };
}

/** One cell: the server's text (null for NULL) of a value of type `oid`, as a value (module comment). */
export function postgresValue(oid: number, text: string | null): SqlValue {
  if (text === null) return null;
  switch (oid) {
    case BOOL: return { t: 'int', v: text === 't' ? 1n : 0n };
    case INT2: case INT4: case INT8: case OID: return { t: 'int', v: BigInt(text) };
    case FLOAT4: case FLOAT8: return realOf(text);
    case NUMERIC: return /^-?[0-9]+$/.test(text) ? { t: 'int', v: BigInt(text) } : realOf(text);
    case BYTEA: return { t: 'blob', hex: text.startsWith('\\x') ? text.slice(2) : Buffer.from(text, 'latin1').toString('hex') };
    default: return { t: 'text', v: text };
  }
}

/** One row in wire form. */
export function postgresRow(oids: readonly number[], row: readonly (string | null)[]): WireValue[] {
  return row.map((cell, i) => toWire(postgresValue(oids[i] ?? 0, cell)));
}
