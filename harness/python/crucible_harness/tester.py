"""The tester T: trusted; runs the problem's test code against a proxy of the candidate.

Forked from the zygote (never from C) and non-dumpable, so C can neither read nor patch its memory. It
executes the trusted `prelude` (the dataset prompt: tests call helpers defined there, e.g. `poly` in
HumanEval/32), then the test code after an AST pass that counts every executed `assert`, with the entry
point name and `candidate` bound to a proxy. The proxy sends PyValue-encoded arguments to C and gets back
PyValue data, decoded here into fresh builtin objects: no object of the candidate, hence no rigged `__eq__`,
ever reaches the test. The test also sees the other names the program defines, as in openai/human-eval's one
namespace (prompt + completion + test): each free name of the test that neither the builtins, the prelude nor
the test define is asked of C at load time, and bound here to a call proxy of that global (a function or class
of the program), to this process's own import of the module of that name (standard-library modules only), or
to the decoded value (data). Builtins are never rebound, so a program's own `abs` or `len` never reaches the
test. T's only output is one JSON report on a pipe only the zygote holds:

  {"ok": bool, "assertions": n, "calls": n, "error": null | {"kind", "type", "message", "line"}}

kinds: assertion, test_exception, candidate_exception, candidate_load, candidate_crash, candidate_memory,
opaque, protocol (C broke the channel rules), unsupported (an argument cannot cross), test_invalid, internal,
unsplit (script mode: an assert that cannot be judged without trusting the program, split_asserts.py).

Script mode (ScriptJudgement, MBPP): no test code at all runs in C; T evaluates each assert line itself and asks C
only for the values of the calls into the program (`{"eval": source}`), decoded here like the proxy's answers.
"""
import _thread
import ast
import builtins
import gc
import hashlib
import importlib
import os
import random
import signal
import socket
import operator
import reprlib
import sys

from . import confine, frames, pyvalue, split_asserts

CHANNEL_FD = 3
REPORT_FD = 4
ASSERT_HOOK = "__crucible_assert_executed__"
COMPARE_HOOK = "__crucible_compare__"
# `assert L op R` with one of these operators keeps its operands, so a failure can say what was compared.
_COMPARE_OPS = {ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne), ast.Lt: ("<", operator.lt),
                ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge)}
_COMPARE_FUNCS = dict(_COMPARE_OPS.values())
_SHOW = reprlib.Repr()
_SHOW.maxstring, _SHOW.maxother, _SHOW.maxlist, _SHOW.maxtuple, _SHOW.maxdict, _SHOW.maxset, _SHOW.maxlevel = 60, 60, 8, 8, 6, 8, 3
_PRISTINE_BUILTINS = dict(vars(builtins))
MESSAGE_CHARS = 200
# At most this many of the test's free names are asked of the candidate (the rest stay unbound).
MAX_PROGRAM_NAMES = 256


class CandidateFailure(BaseException):
    """Base of failures that end the judgement whatever the test code does (BaseException: `except
    Exception` in a test cannot swallow them; a bare `except:` is caught by the sticky `fatal` flag)."""
    kind = "candidate_crash"


class CandidateCrashed(CandidateFailure):
    kind = "candidate_crash"


class CandidateOutOfMemory(CandidateFailure):
    kind = "candidate_memory"


class CandidateLoadFailed(CandidateFailure):
    kind = "candidate_load"


class ProtocolViolation(CandidateFailure):
    kind = "protocol"


class UnsupportedArgument(CandidateFailure):
    kind = "unsupported"


class _CountAsserts(ast.NodeTransformer):
    """Counts every executed `assert`, and routes `assert L op R` (one comparison) through COMPARE_HOOK, which
    evaluates L then R once each, compares them with Python's own operator (operator.eq is `==`, reflected methods
    included) and returns that result for `assert` to test as before; it only keeps the operands, so a failing
    assertion can report the values it compared (pytest rewrites asserts to the same end)."""

    def visit_Assert(self, node):
        # Every node made here gets its location now (that of the node it stands for or sits in, as
        # ast.fix_missing_locations would give it), so compiling needs no walk of the whole tree for them.
        hook = ast.copy_location(ast.Name(id=ASSERT_HOOK, ctx=ast.Load()), node)
        hit = ast.Expr(value=ast.copy_location(ast.Call(func=hook, args=[], keywords=[]), node))
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _COMPARE_OPS:
            symbol = _COMPARE_OPS[type(test.ops[0])][0]
            here = [ast.copy_location(made, test) for made in (ast.Name(id=COMPARE_HOOK, ctx=ast.Load()),
                                                                ast.Constant(symbol), ast.Constant(node.lineno))]
            call = ast.Call(func=here[0], args=[test.left, test.comparators[0], here[1], here[2]], keywords=[])
            node = ast.copy_location(ast.Assert(test=ast.copy_location(call, test), msg=node.msg), node)
        return [ast.copy_location(hit, node), node]


def _confine(fds, req, cpu_ms, cpu):
    confine.set_nondumpable()
    confine.ignore_signals()
    confine.arrange_fds(fds)
    confine.ensure_no_capabilities()
    confine.set_limits(max(req["memoryKiB"], 512 * 1024), -(-cpu_ms // 1000) + 2 if cpu_ms else 0)
    confine.pin_to_cpu(cpu)
    os.chdir("/")


def _contains_opaque(enc):
    stack = [enc]
    while stack:
        v = stack.pop()
        if type(v) is dict:
            if "o" in v:
                return True
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)
    return False


def _rebuild_exception(name, message):
    cls = _PRISTINE_BUILTINS.get(name)
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            return cls(message)
        except BaseException:
            pass
    return RuntimeError(f"{name}: {message}")


def _test_line(exc):
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<test>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _add_loaded_names(tree, names):
    """Add to `names` the id of every ast.Name loaded anywhere in `tree`: the set the loop over ast.walk(tree)
    gives, by a walk without its generators (it runs over every node of every generated test of a solution)."""
    stack = [tree]
    AST, Name, Load = ast.AST, ast.Name, ast.Load
    while stack:
        node = stack.pop()
        if type(node) is Name:
            if type(node.ctx) is Load:
                names.add(node.id)
            continue   # a name's only child is its context
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, AST):
                stack.append(value)
            elif type(value) is list:
                stack.extend(v for v in value if isinstance(v, AST))


def _free_names(sources, entry, parsed=None):
    """Names the test code loads that builtins do not define (sorted, at most MAX_PROGRAM_NAMES): the names the
    program may have to provide, as in one namespace. Unparsable sources give none (they fail elsewhere).
    `parsed` (a dict), when given, receives each parsed source's tree, for _compile_test to use once."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source, "<test>")
        except BaseException:
            continue
        if parsed is not None:
            parsed[source] = tree
        _add_loaded_names(tree, names)
    names -= set(_PRISTINE_BUILTINS)
    names -= {entry, "candidate", ASSERT_HOOK}
    return sorted(names)[:MAX_PROGRAM_NAMES]


def _stdlib_module(name):
    """This process's own import of standard-library module `name`, or None (not a standard-library name, or
    its import failed). The name comes from the candidate: only the standard library is ever imported."""
    if type(name) is not str or name.split(".")[0] not in sys.stdlib_module_names:
        return None
    try:
        return importlib.import_module(name)
    except BaseException:
        return None


# Fields of a node that hold statements, or nodes whose fields do (an except clause, a match case).
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _count_asserts(tree):
    """`tree` with _CountAsserts.visit_Assert applied to every `assert` statement, in place: what
    `_CountAsserts().visit(tree)` makes, walking only statement lists. An `assert` is a statement, so it sits only
    in those lists (of the module, a compound statement, a function or class, an except clause or a match case),
    never inside an expression; ast.NodeTransformer would also walk every expression node, in Python, for
    nothing (most of a generated test's nodes: an assertion compiles once per solution, ~640,000 times a CodeT
    rerank). Each `assert` is replaced on its own, so the order of the walk does not change the result."""
    rewrite = _CountAsserts().visit_Assert
    stack = [tree]
    while stack:
        node = stack.pop()
        for field in _STATEMENT_FIELDS:
            statements = getattr(node, field, None)
            if type(statements) is not list:
                continue
            out = []
            for child in statements:
                if type(child) is ast.Assert:
                    out.extend(rewrite(child))
                else:
                    out.append(child)
                    if isinstance(child, ast.AST):
                        stack.append(child)
            statements[:] = out
    return tree


def _compile_test(source, tree=None):
    """Test code compiled with its asserts counted (_CountAsserts, applied by _count_asserts). `tree`:
    `ast.parse(source, "<test>")` when the caller has it already (it is transformed in place). Raises what
    parsing or compiling raises."""
    if tree is None:
        tree = ast.parse(source, "<test>")
    return compile(_count_asserts(tree), "<test>", "exec", dont_inherit=True, optimize=0)


class Judgement:
    """One judgement: the prelude, then the test code against a proxy of the candidate on CHANNEL_FD.
    `codes` caches compiled prelude and test code across judgements of one warm tester (same problem)."""

    def __init__(self, req, codes=None):
        self.req = req
        self.codes = {} if codes is None else codes
        self.assertions = 0
        self.calls = 0
        self.fatal = None
        self.raised_for_candidate = []
        # The operands of the last `assert L op R` evaluated (COMPARE_HOOK): (test line, L, op, R).
        self.last_compare = None
        # Generated-test mode only: what each candidate call answered, for output-agreement signatures.
        self.outcomes = None
        # Test sources _free_names parsed, by source, until _run_one compiles them (each is run once per T).
        self.parsed = {}

    def _compiled(self, kind, source):
        key = (kind, source)
        code = self.codes.get(key)
        if code is None:
            if kind == "test":
                code = _compile_test(source, self.parsed.pop(source, None))
            else:
                code = compile(source, "<prelude>", "exec", dont_inherit=True)
            self.codes[key] = code
        return code

    def _count_assert(self):
        self.assertions += 1

    def _compare(self, left, right, symbol, line):
        self.last_compare = (line, left, symbol, right)
        return _COMPARE_FUNCS[symbol](left, right)

    def _compared(self, line):
        """`assert L op R` as it failed at test line `line` (operands shown short), or None."""
        last = self.last_compare
        if last is None or last[0] != line:
            return None
        try:
            return f"assert {_SHOW.repr(last[1])} {last[2]} {_SHOW.repr(last[3])}"
        except BaseException:
            return None

    def _receive(self):
        try:
            reply = frames.read_frame(CHANNEL_FD)
        except frames.ChannelClosed:
            raise self._fail(CandidateCrashed("the candidate process died"))
        except frames.FrameTooLarge:
            raise self._fail(ProtocolViolation("the candidate sent a frame over the size limit"))
        except (pyvalue.DecodeError, UnicodeDecodeError):
            raise self._fail(ProtocolViolation("the candidate sent malformed JSON"))
        if type(reply) is not dict or not (len(reply) == 1 or set(reply) == {"ready", "names"}):
            raise self._fail(ProtocolViolation("the candidate sent an unexpected message"))
        return reply

    def _fail(self, exc):
        if self.fatal is None:
            self.fatal = exc
        return exc

    def _error_reply(self, reply):
        err = reply.get("error")
        if type(err) is not list or len(err) != 2 or type(err[0]) is not str or type(err[1]) is not str:
            raise self._fail(ProtocolViolation("the candidate sent an unexpected message"))
        return err[0][:100], err[1][:MESSAGE_CHARS]

    def _make_proxy(self, name, target=None):
        """A call proxy of the entry point, or (`target`) of the program's global of that name."""
        def proxy(*args, **kwargs):
            if self.fatal is not None:
                raise self.fatal
            self.calls += 1
            enc_args = [pyvalue.encode(a) for a in args]
            enc_kw = [[k, pyvalue.encode(v)] for k, v in kwargs.items()]
            if _contains_opaque(enc_args) or _contains_opaque(enc_kw):
                raise self._fail(UnsupportedArgument("a test argument is not plain data and cannot cross"))
            request = {"call": enc_args, "kw": enc_kw}
            if target is not None:
                request["fn"] = target
            try:
                frames.write_frame(CHANNEL_FD, request)
            except OSError:
                raise self._fail(CandidateCrashed("the candidate process died"))
            return self._value_of(self._receive())
        proxy.__name__ = proxy.__qualname__ = name
        return proxy

    def _test_sources(self):
        """The test code this judgement runs (one test, or the generated assertions)."""
        if type(self.req.get("assertions")) is list:
            return [a for a in self.req["assertions"] if type(a) is str]
        return [self.req["test"]] if type(self.req.get("test")) is str else []

    def _value_of(self, reply):
        """C's answer to a call as a fresh builtin value, or the exception it raised rebuilt here."""
        if "v" in reply:
            if self.outcomes is not None:
                self.outcomes.append(reply["v"])
            try:
                return pyvalue.decode(reply["v"])
            except pyvalue.DecodeError as e:
                raise self._fail(ProtocolViolation(f"malformed value: {e}"))
        ename, message = self._error_reply(reply)
        if self.outcomes is not None:
            self.outcomes.append({"raised": ename})
        if ename == "MemoryError":
            raise self._fail(CandidateOutOfMemory(f"MemoryError: {message}"))
        exc = _rebuild_exception(ename, message)
        exc.__crucible_candidate_type__ = ename
        self.raised_for_candidate.append(exc)
        raise exc

    def _start(self):
        """Send C the program and run the prelude meanwhile. Returns the prelude's globals."""
        req = self.req
        key = ("names", tuple(self._test_sources()))
        names = self.codes.get(key)
        if names is None:
            names = self.codes[key] = _free_names(key[1], req["entryPoint"], self.parsed)
        self.asked = set(names)
        self.program_names = {}
        frames.write_frame(CHANNEL_FD, {"load": req["program"], "entry": req["entryPoint"], "names": names})
        g = {}
        try:
            prelude = self._compiled("prelude", req.get("prelude") or "")
        except BaseException:
            prelude = None
        if prelude is not None:
            try:
                exec(prelude, g)
            except BaseException:
                pass
        return g

    def _await_loaded(self):
        """Wait for C's answer to the load request. Returns None when C is ready, else an error dict."""
        try:
            ready = self._receive()
            self.ready = ready
            if type(ready.get("ready")) is dict:
                self.program_names = ready["ready"]
            elif ready.get("ready") is not True:
                ename, message = self._error_reply(ready)
                if ename == "MemoryError":
                    raise self._fail(CandidateOutOfMemory(f"MemoryError while loading: {message}"))
                self._fail(CandidateLoadFailed(f"{ename}: {message}"))
                self.load_error_type = ename
                raise self.fatal
        except CandidateFailure as e:
            return self._describe(e)
        return None

    def _bind_program_names(self, g):
        """Bind the names C said its program defines (module comment) where the prelude left them free. A
        malformed answer is a protocol violation; a name that was not asked, or a module that is not the
        standard library's, stays unbound."""
        for name, desc in self.program_names.items():
            if name not in self.asked or name in g:
                continue
            if type(desc) is not dict or len(desc) != 1:
                raise self._fail(ProtocolViolation("the candidate described its names wrongly"))
            if desc.get("f") == 1:
                g[name] = self._make_proxy(name, target=name)
            elif "m" in desc:
                module = _stdlib_module(desc["m"])
                if module is not None:
                    g[name] = module
            elif "v" in desc:
                try:
                    g[name] = pyvalue.decode(desc["v"])
                except pyvalue.DecodeError as e:
                    raise self._fail(ProtocolViolation(f"malformed value: {e}"))
            else:
                raise self._fail(ProtocolViolation("the candidate described its names wrongly"))

    def _bind(self, g):
        proxy = self._make_proxy(self.req["entryPoint"])
        g[self.req["entryPoint"]] = proxy
        g["candidate"] = proxy
        g[ASSERT_HOOK] = self._count_assert
        g[COMPARE_HOOK] = self._compare
        return proxy

    def run(self):
        req = self.req
        g = self._start()
        try:
            test = self._compiled("test", req["test"])
        except BaseException as e:
            return self._report({"kind": "test_invalid", "type": type(e).__name__, "message": str(e)})
        load_error = self._await_loaded()
        if load_error is not None:
            return self._report(load_error)
        proxy = self._bind(g)
        error = None
        try:
            self._bind_program_names(g)
            exec(test, g)
            check = g.get("check")
            if callable(check):
                check(proxy)
        except BaseException as e:
            error = self._describe(e)
        if self.fatal is not None:
            error = self._describe(self.fatal)
        return self._report(error)

    def _describe(self, e):
        if isinstance(e, CandidateFailure):
            d = {"kind": e.kind, "type": getattr(self, "load_error_type", type(e).__name__)
                 if e.kind == "candidate_load" else type(e).__name__}
        elif any(e is x for x in self.raised_for_candidate):
            d = {"kind": "candidate_exception", "type": e.__crucible_candidate_type__}
        elif isinstance(e, pyvalue.OpaqueValueUsed):
            d = {"kind": "opaque", "type": "OpaqueValueUsed"}
        elif isinstance(e, AssertionError):
            d = {"kind": "assertion", "type": "AssertionError"}
        else:
            d = {"kind": "test_exception", "type": type(e).__name__}
        try:
            d["message"] = str(e)[:MESSAGE_CHARS]
        except BaseException:
            d["message"] = ""
        d["line"] = _test_line(e)
        compared = self._compared(d["line"]) if d["kind"] == "assertion" else None
        if compared is not None:
            d["message"] = (f"{compared} ({d['message']})" if d["message"] else compared)[:MESSAGE_CHARS]
        return d

    def _report(self, error):
        return {"ok": error is None, "assertions": self.assertions, "calls": self.calls, "error": error}


# --------------------------------------------------------------------------------------------- script mode

def _cut(text, chars=MESSAGE_CHARS):
    return text if len(text) <= chars else text[:chars - 3] + "..."


class ScriptJudgement(Judgement):
    """One judgement of a script (`script` mode, MBPP's program + setup + assert lines). C loads the program
    and the setup and reports the names its globals bind; each assert line is then split (split_asserts) and
    evaluated HERE, in order, C evaluating only the calls into the program and returning their values as data.
    No code of the test ever runs in C, and no expected value is ever sent to it. The first assert that fails,
    raises or cannot be split ends the judgement, as the first failing assert ends MBPP's program."""

    def run(self):
        req = self.req
        frames.write_frame(CHANNEL_FD, {"load": req["program"], "entry": None})
        load_error = self._await_loaded()
        if load_error is not None:
            return self._report(load_error)
        try:
            names = self._names(self.ready.get("names"))
        except CandidateFailure as e:
            return self._report(self._describe(e))
        for i, source in enumerate(req["asserts"]):
            error = self._run_assert(i, source, names)
            if self.fatal is not None:
                return self._report(self._describe(self.fatal))
            if error is not None:
                return self._report(error)
        return self._report(None)

    def _names(self, raw):
        """C's names as {name: module name or None}, strictly checked (C is hostile)."""
        if type(raw) is not list or len(raw) > 10_000:
            raise self._fail(ProtocolViolation("the candidate sent a malformed list of names"))
        names = {}
        for pair in raw:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str or \
                    (pair[1] is not None and type(pair[1]) is not str):
                raise self._fail(ProtocolViolation("the candidate sent a malformed list of names"))
            names[pair[0]] = pair[1]
        return names

    def _remote(self, source):
        if self.fatal is not None:
            raise self.fatal
        self.calls += 1
        try:
            frames.write_frame(CHANNEL_FD, {"eval": source})
        except OSError:
            raise self._fail(CandidateCrashed("the candidate process died"))
        return self._value_of(self._receive())

    def _globals(self, test, names):
        """T's namespace for one assert: pristine builtins and its own imports of the standard modules the
        program also binds under their names. Returns (globals, names the program binds otherwise)."""
        g = {"__builtins__": dict(_PRISTINE_BUILTINS)}
        for name in split_asserts.trusted_modules(test, names):
            try:
                g[name] = importlib.import_module(name)
            except BaseException:
                pass
        return g, set(names) - set(g)

    def _run_assert(self, i, line, names):
        """Judge test line `i` (its asserts, in order). Returns None when they held, else the report's error."""
        source = "; ".join(part.strip() for part in line.splitlines() if part.strip())

        def unsplit(e):
            return {"kind": "unsplit", "type": type(e).__name__, "line": None,
                    "message": _cut(f"test {i} cannot be judged without trusting the program: {e}: {source}")}
        try:
            tests = split_asserts.parse_asserts(line)
        except (SyntaxError, split_asserts.NotAsserts) as e:
            return {"kind": "test_invalid", "type": type(e).__name__, "line": None,
                    "message": _cut(f"test {i} cannot be judged: {e}")}
        for test in tests:
            try:
                g, program = self._globals(test, names)
                code, sources = split_asserts.split(test, program)
            except split_asserts.Unsplittable as e:
                return unsplit(e)
            g[split_asserts.REMOTE] = lambda k, sources=sources: self._remote(sources[k])
            self.assertions += 1
            try:
                if not eval(code, g):
                    return {"kind": "assertion", "type": "AssertionError", "line": None,
                            "message": _cut(f"test {i} failed: {source}")}
            except BaseException as e:
                error = self._describe(self.fatal if self.fatal is not None else e)
                error["line"] = None
                error["message"] = _cut(error.get("message") or "", 120) + _cut(f" (test {i}: {source})", 80)
                return error
        return None


# ------------------------------------------------------------------------------------------- warm tester

# Every judgement starts from the same `random` state, as every candidate does (candidate.RANDOM_SEED): test code
# that draws random inputs without seeding (HumanEval/38's) must draw the same inputs on every run.
RANDOM_SEED = 0


def serve(ctl_fd, req, cpu=None):
    """Entry point of a warm tester (zygote unit_test mode). Never returns.

    Serves judgements of one problem, i.e. one (prelude, test, entry point, memory limit), one candidate at a
    time, for as long as the zygote keeps it. Per candidate the zygote sends on the control socket (fd 4) one
    byte carrying the candidate's call channel (SCM_RIGHTS), then a frame {"program", "cpuMs", "cpu"}; T
    answers one frame: the report of `Judgement.run` plus "reusable". Each judgement starts from fresh globals,
    a re-seeded `random`, pristine builtins, no timers and ignored signals; T declares itself not reusable
    (and exits) when test code left a thread running or when anything in the loop failed."""
    _exit = os._exit
    try:
        _confine({REPORT_FD: ctl_fd}, req, None, cpu)   # CPU: a soft limit per judgement
        _WarmLoop(req).serve()
    except BaseException as e:
        try:   # the zygote reads this as a report that is not reusable, i.e. T's own failure
            frames.write_frame(REPORT_FD, {"ok": False, "assertions": 0, "calls": 0, "reusable": False, "error": {
                "kind": "internal", "type": type(e).__name__, "message": str(e)[:MESSAGE_CHARS]}})
        except BaseException:
            pass
    finally:
        _exit(0)


class _WarmLoop:
    def __init__(self, req):
        self.req = req
        self.codes = {}
        self.ctl = socket.socket(fileno=REPORT_FD)
        self.recursion_limit = sys.getrecursionlimit()
        self.threads = _thread._count()

    def serve(self):
        while True:
            marker, fds, _flags, _addr = socket.recv_fds(self.ctl, 1, 1)
            if not marker or len(fds) != 1:
                return
            if fds[0] != CHANNEL_FD:
                os.dup2(fds[0], CHANNEL_FD, inheritable=False)
                os.close(fds[0])
            job = frames.read_frame(REPORT_FD)
            if type(job) is not dict or type(job.get("program")) is not str or type(job.get("cpuMs")) is not int:
                return
            seq = job.get("seq")
            confine.set_cpu_soft_limit(-(-job["cpuMs"] // 1000) + 2)
            confine.pin_to_cpu(job.get("cpu"))
            random.seed(RANDOM_SEED)
            req = dict(self.req, program=job["program"])
            try:
                judgement = ScriptJudgement if req["mode"] == "script" else Judgement
                report = judgement(req, self.codes).run()
            except BaseException as e:
                report = {"ok": False, "assertions": 0, "calls": 0,
                          "error": {"kind": "internal", "type": type(e).__name__, "message": str(e)[:MESSAGE_CHARS]}}
            os.close(CHANNEL_FD)
            report["seq"] = seq
            error = report.get("error")
            report["reusable"] = self._restore() and not (type(error) is dict and error.get("kind") == "internal")
            frames.write_frame(REPORT_FD, report)
            if not report["reusable"]:
                return

    def _restore(self):
        """Undo what test code may have changed in the interpreter. False when it cannot be undone."""
        signal.alarm(0)
        for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
            signal.setitimer(timer, 0)
        confine.ignore_signals()
        names = vars(builtins)
        if names != _PRISTINE_BUILTINS:
            names.clear()
            names.update(_PRISTINE_BUILTINS)
        sys.setrecursionlimit(self.recursion_limit)
        sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__
        if not gc.isenabled():
            gc.enable()
        os.chdir("/")
        return _thread._count() == self.threads


# ------------------------------------------------------------------------------------------ generated tests

def run_assertions(chan_fd, report_fd, control_fd, req, cpu=None, go_fd=None):
    """Entry point of a tester for generated tests (zygote `assertions` mode). Never returns.

    The zygote writes one command line per test to `control_fd`: the index of the assertion to run. For each,
    T answers one line on the report pipe:
      {"i": n, "ok": bool, "assertions": n, "error": null | {...}, "signature": hex}
    `signature` hashes what the candidate answered to every call the test made (values, or the exception
    type raised), canonicalised so that equal outputs give equal signatures (sets and dicts sorted; opaque
    values by type only). Each test runs in a fresh copy of the prelude's globals; C persists across tests
    until a limit or a crash makes the zygote replace both processes."""
    _exit = os._exit
    try:
        # The zygote first puts us in the tester sub-group (when the box has one): nothing runs before its go.
        if go_fd is not None:
            if os.read(go_fd, 1) != b"1":
                _exit(0)
            os.close(go_fd)
        _confine({CHANNEL_FD: chan_fd, REPORT_FD: report_fd, CONTROL_FD: control_fd}, req,
                 req["cpuMs"] * (len(req["assertions"]) + 1), cpu)
        GeneratedTests(req).serve()
    except BaseException:
        pass
    finally:
        _exit(0)


CONTROL_FD = 5


def _canonical(enc):
    """A PyValue encoding with set and dict entries sorted and opaque reprs dropped (stable across runs)."""
    if type(enc) is list:
        return [_canonical(v) for v in enc]
    if type(enc) is not dict:
        return enc
    if "o" in enc:
        return {"o": enc["o"]}
    out = {}
    for tag, payload in enc.items():
        if tag in ("s", "fs", "d") and type(payload) is list:
            items = [_canonical(v) for v in payload]
            out[tag] = sorted(items, key=lambda v: pyvalue.dumps(v))
        else:
            out[tag] = _canonical(payload)
    return out


class GeneratedTests(Judgement):
    """Runs the request's `assertions` one at a time, on the zygote's command, against one C."""

    def serve(self):
        req = self.req
        base = self._start()
        load_error = self._await_loaded()
        if load_error is None:
            try:
                self._bind_program_names(base)
            except CandidateFailure as e:
                load_error = self._describe(e)
        pending = b""
        while True:
            while b"\n" not in pending:
                chunk = os.read(CONTROL_FD, 4096)
                if not chunk:
                    return
                pending += chunk
            line, pending = pending.split(b"\n", 1)
            i = int(line)
            self.assertions, self.calls, self.raised_for_candidate, self.outcomes = 0, 0, [], []
            self.last_compare = None
            if load_error is not None:
                error = load_error
            else:
                error = self._run_one(base, req["assertions"][i])
            try:
                signature = hashlib.sha256(pyvalue.dumps(_canonical(self.outcomes)).encode()).hexdigest()[:32]
            except BaseException:
                signature = ""
            report = {"i": i, "ok": error is None and self.assertions >= 1, "assertions": self.assertions,
                      "error": error, "signature": signature}
            data = (pyvalue.dumps(report) + "\n").encode()
            while data:
                data = data[os.write(REPORT_FD, data):]

    def _run_one(self, base, source):
        if self.fatal is not None:
            return self._describe(self.fatal)
        try:
            test = _compile_test(source, self.parsed.pop(source, None))
        except BaseException as e:
            return {"kind": "test_invalid", "type": type(e).__name__, "message": str(e)[:MESSAGE_CHARS]}
        g = dict(base)
        self._bind(g)
        error = None
        try:
            exec(test, g)
        except BaseException as e:
            error = self._describe(e)
        if self.fatal is not None:
            error = self._describe(self.fatal)
        return error
