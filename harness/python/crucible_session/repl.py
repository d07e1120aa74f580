"""REPL driver of a session (runs model code: untrusted; started by session-agent, src/sandbox/native/session-agent.c, inside the session's box).

Reads one step at a time on fd 3 (8-byte little-endian length, then UTF-8 text), runs it, flushes stdout and
stderr (pipes the agent drains), and reports the end of the step on fd 4 (a datagram socket: the agent,
src/sandbox/native/session-agent.c, counts only reports this very process sends) as one JSON line {"exitCode": n,
"extra": ...}. State persists between steps in this process.

- python: the step is Python code run in one persistent namespace (`__main__`); if its last statement is an
  expression its repr is printed, as an interactive interpreter does. An exception prints its traceback on
  stderr and gives exitCode 1; `exit(n)` / SystemExit gives exitCode n and the REPL goes on.
- sqlite: the step is SQL (one or more statements) on /box/task.db in autocommit mode; the result set of each
  statement that returns rows is printed as `col|col` lines with a header, and the last one is reported in
  `extra` as {"columns": [...], "rows": [[...]...]} (at most 1000 rows, `truncated` says so). An error prints
  `Error: <message>` on stderr and gives exitCode 1.
The fds 3 and 4 are close-on-exec, so programs the step starts do not hold them.

An idle session box costs what this process holds, so it starts small (issue #12: <= 5 MiB per idle session):
python3.11 runs with -I -S (no `site`: no .pth file, sitecustomize or host package hooks run in the box), this
driver imports only builtin C modules before the first step (`_ast` through compile()'s PyCF_ONLY_AST instead of
the `ast` module, which pulls in `enum` and `re`; the interpreter's own C traceback printer instead of the
`traceback` module; `json` only for the sqlite kind's reports), and what `site` would give a program is set up by
hand: the dist-packages directories on sys.path (Debian's site.py order) and the exit/quit/help builtins.
"""
import _ast
import builtins
import posix as os
import sys

CTL, RES = 3, 4
MAX_ROWS = 1000
MAX_REPORT_BYTES = 60_000


def read_exact(n):
    chunks = []
    while n > 0:
        data = os.read(CTL, min(n, 1 << 20))
        if not data:
            raise EOFError
        chunks.append(data)
        n -= len(data)
    return b"".join(chunks)


def report(exit_code, extra=None):
    try:
        sys.stdout.flush()
    except Exception:
        pass
    try:
        sys.stderr.flush()
    except Exception:
        pass
    if extra is None:
        # The python kind's report: no json module needed.
        os.write(RES, b'{"exitCode": %d, "extra": null}\n' % exit_code)
        return
    import json
    # fd 4 is a datagram socket (the agent checks the sender is this process): one report, at most 60 kB, so
    # a large result set keeps its first rows.
    line = (json.dumps({"exitCode": exit_code, "extra": extra}) + "\n").encode()
    while len(line) > MAX_REPORT_BYTES and isinstance(extra, dict) and extra.get("rows"):
        extra = dict(extra, rows=extra["rows"][:len(extra["rows"]) // 2], truncated=True)
        line = (json.dumps({"exitCode": exit_code, "extra": extra}) + "\n").encode()
    if len(line) > MAX_REPORT_BYTES:
        line = (json.dumps({"exitCode": exit_code, "extra": None}) + "\n").encode()
    os.write(RES, line)


def python_step(code, namespace):
    try:
        tree = compile(code, "<step>", "exec", _ast.PyCF_ONLY_AST)
        last = None
        if tree.body and isinstance(tree.body[-1], _ast.Expr):
            last = _ast.Expression(tree.body.pop().value)
        exec(compile(tree, "<step>", "exec"), namespace)
        if last is not None:
            value = eval(compile(last, "<step>", "eval"), namespace)
            if value is not None:
                print(repr(value))
        return 0
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    except BaseException as e:
        # Show the step's own frames, not this driver's.
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        # The interpreter's own printer (sys.__excepthook__, as for an uncaught exception): the same text as the
        # traceback module, chained exceptions included, without importing it.
        sys.__excepthook__(type(e), e.with_traceback(tb), tb)
        return 1


def cell(value):
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, float) and value - value != 0:
        # An infinity (SQLite keeps 1e999 as Inf) has no JSON number: say it as the sqlite3 shell prints it, so the
        # report stays JSON the host can read. SQLite has no NaN (it stores NULL), but say one as NULL all the same.
        if value != value:
            return None
        return "Inf" if value > 0 else "-Inf"
    return value


def statements(sql, sqlite3):
    """Split SQL into complete statements: at each `;` where the text so far is a complete statement (so a `;`
    inside a string literal or a trigger body does not split); a trailing incomplete part is the last one."""
    start = 0
    at = sql.find(";")
    while at >= 0:
        chunk = sql[start:at + 1]
        if sqlite3.complete_statement(chunk):
            if chunk.strip(" \t\r\n;"):
                yield chunk
            start = at + 1
        at = sql.find(";", at + 1)
    if sql[start:].strip():
        yield sql[start:]


def sqlite_step(sql, connection, sqlite3):
    last = None
    try:
        for statement in statements(sql, sqlite3):
            last = run_statement(statement, connection, last)
        return 0, last
    except sqlite3.Error as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1, last


def run_statement(statement, connection, last):
    cursor = connection.execute(statement)
    if cursor.description is None:
        return last
    columns = [d[0] for d in cursor.description]
    rows = cursor.fetchmany(MAX_ROWS + 1)
    truncated = len(rows) > MAX_ROWS
    rows = [[cell(v) for v in row] for row in rows[:MAX_ROWS]]
    print("|".join(columns))
    for row in rows:
        print("|".join("" if v is None else str(v) for v in row))
    if truncated:
        print(f"[... more than {MAX_ROWS} rows; the first {MAX_ROWS} shown]")
    return {"columns": columns, "rows": rows, "truncated": truncated}


def site_by_hand():
    """What `site` gives a program, without running it: the dist-packages directories that exist (in the order
    Debian's site.py puts them) and the exit/quit/help builtins (CPython's _sitebuiltins)."""
    for path in ("/usr/local/lib/python3.11/dist-packages", "/usr/lib/python3/dist-packages",
                 "/usr/lib/python3.11/dist-packages"):
        try:
            os.stat(path)
        except OSError:
            continue
        sys.path.append(path)
    import _sitebuiltins
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()


def main():
    kind = sys.argv[1]
    os.set_inheritable(CTL, False)
    os.set_inheritable(RES, False)
    sys.argv = [""]
    site_by_hand()
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    connection = sqlite3 = None
    if kind == "sqlite":
        import sqlite3 as sqlite3_module
        sqlite3 = sqlite3_module
        connection = sqlite3.connect("/box/task.db", isolation_level=None)
    os.write(RES, b'{"ready": true}\n')
    while True:
        try:
            n = int.from_bytes(read_exact(8), "little")
            code = read_exact(n).decode("utf-8", "replace")
        except EOFError:
            return
        if kind == "python":
            report(python_step(code, namespace))
        else:
            exit_code, last = sqlite_step(code, connection, sqlite3)
            report(exit_code, last)


if __name__ == "__main__":
    main()
