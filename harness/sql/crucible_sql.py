"""Crucible's in-box SQL runner: run queries on read-only SQLite databases and print their results as data.

Runs as `/usr/bin/python3.11 -s -P -S -B crucible_sql.py` inside a sandbox box, with the database files mounted
read-only. Standard library only. Python's `sqlite3` module is used on purpose: it is what Spider's and BIRD's
evaluators use, so values (int, float, str, bytes, None), errors and the one-statement rule are theirs.

Input (stdin, one JSON object): {"databases": [path, ...], "queries": [text, ...], "timeLimitMs": n,
"maxRows": n, "maxBytes": n}. Every query runs on every database, query by query.
Output (stdout): one JSON line per (query, database), in that order:
  {"q": i, "db": j, "rows": [[cell, ...], ...]}          the result (cells in Crucible's wire form, see
                                                          src/kinds/sql/values.ts)
  {"q": i, "db": j, "error": "<Type>: <message>"}        SQLite refused or failed the query
  {"q": i, "db": j, "timeout": true}                     interrupted at timeLimitMs (sqlite3 progress handler)
  {"q": i, "db": j, "tooLarge": "<what>"}               more than maxRows rows or maxBytes bytes of cells
then {"done": true}. The sandbox's own limits stay the hard stop (a runaway query is killed from outside).

Rules: each database is opened read-only (`file:...?mode=ro`, `PRAGMA query_only`; a path ending in `.sql` is
the SQL text that builds the database, executed into an in-memory database before the rules below apply); an authorizer refuses
ATTACH, DETACH, any PRAGMA with a value (writes), every write, and the functions that reach beyond SQL
(`load_extension`, which Python's sqlite3 disables anyway, and `fts3_tokenizer`: Debian's SQLite is built with
SQLITE_ENABLE_FTS3_TOKENIZER, so its one-argument form reads a tokenizer's address out of the process and its
two-argument form installs a tokenizer from any bytes as a pointer, a known road to running code); a query is one statement (sqlite3's own rule:
"You can only execute one statement at a time"); TEXT that is not UTF-8 is kept as its bytes (`badtext`) for
the comparator to decode by its evaluator's rule.
"""
import json
import sqlite3
import sys
import time

READ_PRAGMAS = {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list",
                "table_list", "database_list", "collation_list", "function_list"}
DENIED_ACTIONS = {sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH, sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE,
                  sqlite3.SQLITE_DELETE, sqlite3.SQLITE_CREATE_INDEX, sqlite3.SQLITE_CREATE_TABLE,
                  sqlite3.SQLITE_CREATE_TEMP_INDEX, sqlite3.SQLITE_CREATE_TEMP_TABLE,
                  sqlite3.SQLITE_CREATE_TEMP_TRIGGER, sqlite3.SQLITE_CREATE_TEMP_VIEW, sqlite3.SQLITE_CREATE_TRIGGER,
                  sqlite3.SQLITE_CREATE_VIEW, sqlite3.SQLITE_DROP_INDEX, sqlite3.SQLITE_DROP_TABLE,
                  sqlite3.SQLITE_DROP_TEMP_INDEX, sqlite3.SQLITE_DROP_TEMP_TABLE, sqlite3.SQLITE_DROP_TEMP_TRIGGER,
                  sqlite3.SQLITE_DROP_TEMP_VIEW, sqlite3.SQLITE_DROP_TRIGGER, sqlite3.SQLITE_DROP_VIEW,
                  sqlite3.SQLITE_ALTER_TABLE, sqlite3.SQLITE_REINDEX, sqlite3.SQLITE_ANALYZE,
                  sqlite3.SQLITE_CREATE_VTABLE, sqlite3.SQLITE_DROP_VTABLE, sqlite3.SQLITE_SAVEPOINT}
DENIED_FUNCTIONS = {"load_extension", "fts3_tokenizer"}


class TextBytes(bytes):
    """A TEXT value's bytes (BLOBs arrive as plain bytes)."""


def authorize(action, arg1, arg2, _db, _source):
    if action in DENIED_ACTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in DENIED_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA and arg2 is not None and (arg1 or "").lower() not in READ_PRAGMAS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def cell(v):
    if v is None:
        return None
    if isinstance(v, TextBytes):
        try:
            return bytes(v).decode("utf-8")
        except UnicodeDecodeError:
            return {"badtext": bytes(v).hex()}
    if isinstance(v, bytes):
        return {"blob": v.hex()}
    if isinstance(v, int):
        return v if -(2 ** 53) <= v <= 2 ** 53 else {"int": str(v)}
    if v != v:
        return {"real": "nan"}
    if v in (float("inf"), float("-inf")):
        return {"real": "inf" if v > 0 else "-inf"}
    return {"real": v}


def connect(path):
    if path.endswith(".sql"):
        # A database given as the SQL that builds it: built in memory (trusted text), then read-only as a file is.
        conn = sqlite3.connect(":memory:", isolation_level=None)
        with open(path, encoding="utf-8") as f:
            conn.executescript(f.read())
    else:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    conn.text_factory = TextBytes
    conn.execute("PRAGMA query_only = 1")
    conn.set_authorizer(authorize)
    return conn


def run(conn, query, deadline, max_rows, max_bytes):
    conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 1000)
    try:
        cursor = conn.execute(query)
        rows = []
        size = 0
        while True:
            batch = cursor.fetchmany(512)
            if not batch:
                break
            for r in batch:
                out = [cell(v) for v in r]
                size += len(json.dumps(out, ensure_ascii=False))
                rows.append(out)
                if len(rows) > max_rows:
                    return {"tooLarge": f"more than {max_rows} rows"}
                if size > max_bytes:
                    return {"tooLarge": f"more than {max_bytes} bytes of results"}
        return {"rows": rows}
    except sqlite3.OperationalError as e:
        if str(e) == "interrupted" and time.monotonic() > deadline:
            return {"timeout": True}
        return {"error": f"{type(e).__name__}: {e}"}
    except (sqlite3.Error, sqlite3.Warning, ValueError, OverflowError, MemoryError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    finally:
        conn.set_progress_handler(None, 0)


def main():
    job = json.loads(sys.stdin.read())
    limit_s = job.get("timeLimitMs", 1000) / 1000
    max_rows = job.get("maxRows", 100000)
    max_bytes = job.get("maxBytes", 16 << 20)
    connections = [connect(p) for p in job["databases"]]
    out = sys.stdout
    for i, query in enumerate(job["queries"]):
        for j, conn in enumerate(connections):
            result = run(conn, query, time.monotonic() + limit_s, max_rows, max_bytes)
            out.write(json.dumps({"q": i, "db": j, **result}, ensure_ascii=False, allow_nan=False) + "\n")
            out.flush()
    out.write('{"done": true}\n')
    return 0


if __name__ == "__main__":
    sys.exit(main())
