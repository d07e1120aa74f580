"""Splitting a script's assert lines (MBPP) between the trusted tester T and the candidate C.

MBPP judges `program + setup + assert lines` in one namespace, so a name in an assert means what the program
binds it to. Here the asserts never run in the program's process: T parses each one (Python's `ast`) and
evaluates it itself, except the parts that need the program, which C evaluates and returns as data (PyValue):

  * a call whose callee uses a name the program binds (`f(x)`, `Pair(1, 2).area()`, `sum(10, 15)` when the
    program defines `sum`), sent whole with its arguments: they are the program's inputs;
  * a name the program binds, or an attribute of one (`root`, `root.left`), sent whole.

Everything else (literals, builtins, the comparison itself, `set(...)` around a program call, subscripts) is
T's, evaluated on fresh builtin values decoded from C's data. A name the program binds to the standard
library module of that very name (`import sys` for `sys.getsizeof(...)` on the expected side) is resolved by
T's own import, since both mean the same module and T's cannot be patched.

What C learns is the calls' sources (the inputs), never an expected value: an assert whose comparison has the
program on both sides of one `==` (or any comparison operator), i.e. no expected value of the test's own, is
refused (`NoExpectedSide`: the assert fails, never passes), and so is an assert that needs the program inside
a lambda, a comprehension or an assignment expression (`Unsplittable`), whose variables live in T. The names
come from C (its globals after loading), so C can lie about them; a lie can only move a part of the assert
from C to T (evaluated honestly there) or make the assert refused: it can never put an expected value in C.
"""
import ast
import sys
import textwrap

REMOTE = "__crucible_remote__"
# Nodes that bind names of their own: a program call inside one would need T's variables in C.
_SCOPES = {ast.Lambda: "a lambda", ast.ListComp: "a comprehension", ast.SetComp: "a comprehension",
           ast.DictComp: "a comprehension", ast.GeneratorExp: "a generator expression",
           ast.NamedExpr: "an assignment expression"}


class Unsplittable(Exception):
    """The assert's shape cannot be split between T and C (the message says why)."""


class NoExpectedSide(Unsplittable):
    """A comparison of the assert has values the program computes on both sides."""


class NotAsserts(ValueError):
    """A test line that is not made of assert statements (the test's shape, not the program's doing)."""


def parse_asserts(source):
    """The assert expressions of one test line (usually one `assert`; a line that holds several statements,
    indented or not, must hold only asserts). Raises SyntaxError, or NotAsserts for any other statement."""
    text = textwrap.dedent(source.replace("\r\n", "\n").replace("\r", "\n")).strip("\n")
    tree = ast.parse(text, "<test>", "exec")
    if not tree.body or not all(isinstance(s, ast.Assert) for s in tree.body):
        raise NotAsserts("the test line is not a sequence of assert statements")
    return [s.test for s in tree.body]


def trusted_modules(test, names):
    """The names of `test` that C says it binds to the standard-library module of the same name
    (`names`: {name: module name or None} from C): T resolves them with its own import."""
    used = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    return {n for n in used if names.get(n) == n and n in sys.stdlib_module_names}


class _Split(ast.NodeTransformer):
    def __init__(self, program):
        self.program = program
        self.sources = []

    def _uses(self, node):
        return any(isinstance(n, ast.Name) and n.id in self.program for n in ast.walk(node))

    def _send(self, node):
        self.sources.append(ast.unparse(node))
        call = ast.Call(func=ast.Name(id=REMOTE, ctx=ast.Load()), args=[ast.Constant(len(self.sources) - 1)],
                        keywords=[])
        return ast.copy_location(call, node)

    def visit(self, node):
        if isinstance(node, ast.expr):
            if not self._uses(node):
                return node
            if isinstance(node, ast.Call) and self._uses(node.func):
                return self._send(node)
            if isinstance(node, (ast.Name, ast.Attribute)):
                return self._send(node)
            if type(node) in _SCOPES:
                raise Unsplittable(f"it uses the program inside {_SCOPES[type(node)]}")
        return self.generic_visit(node)


def _remote(node):
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == REMOTE
               for n in ast.walk(node))


def _check_sides(tree, used):
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for a, b in zip(operands, operands[1:]):
                if _remote(a) and _remote(b):
                    raise NoExpectedSide(f"both sides of a comparison are computed by the program (it binds "
                                         f"{', '.join(used[:5])}), so the assert has no expected value of its own")


def split(test, program):
    """Split the assert expression `test` (from parse_asserts) given the names the program binds
    (`program`, a set, without the trusted modules). Returns (code, sources): `code` evaluates the assert
    in T, calling `__crucible_remote__(k)` for the value of `sources[k]`, which C evaluates. Raises
    Unsplittable or NoExpectedSide."""
    used = sorted({n.id for n in ast.walk(test) if isinstance(n, ast.Name) and n.id in program})
    splitter = _Split(program)
    body = splitter.visit(test)
    _check_sides(body, used)
    expression = ast.Expression(body=body)
    ast.fix_missing_locations(expression)
    return compile(expression, "<test>", "eval", dont_inherit=True), splitter.sources
