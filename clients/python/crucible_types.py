"""Typed shapes of what ``crucible serve`` answers (docs/API.md), as ``TypedDict``s for type checkers and editors.

    from crucible_client import CrucibleClient
    from crucible_types import Verdict

    verdict: Verdict = CrucibleClient().judge(code=..., problem="HumanEval/0")
    verdict["status"], verdict["testsPassed"], verdict.get("firstFailedTest")

Fields marked optional in the API are ``total=False`` parts. Values are plain JSON (dicts, lists, str, int, float).
"""

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import Literal, TypedDict
else:  # pragma: no cover - 3.9/3.10
    from typing import Literal, TypedDict

__all__ = [
    "Status", "TestResult", "Extraction", "Verdict", "RewardItemResult", "RewardGroup", "RewardSummary", "RewardsResult",
    "ProblemInfo", "ProblemsPage",
]

Status = Literal[
    "passed", "wrong_answer", "runtime_error", "time_limit_exceeded", "memory_limit_exceeded", "output_limit_exceeded",
    "compile_error", "no_code", "no_tests", "invalid_submission", "internal_error",
]


class _TestResultBase(TypedDict):
    index: int
    status: str


class TestResult(_TestResultBase, total=False):
    """One test's result: its index, status, CPU and wall time (ms), the reason it failed, its score."""

    cpuMs: float
    wallMs: float
    reason: str
    score: float


class Extraction(TypedDict, total=False):
    """How code was taken out of a response: ``kind`` (``code``, ``fenced``, ``no_code``, ...) and details."""

    kind: str
    language: str


class _VerdictBase(TypedDict):
    status: str
    passed: bool
    testCount: int
    testsRun: int
    testsPassed: int
    cpuMs: float
    wallMs: float
    extraction: Extraction


class Verdict(_VerdictBase, total=False):
    """The answer of ``POST /v1/judge``: every test's result only with ``detail="tests"``."""

    plusStatus: str
    plusPassed: bool
    firstFailedTest: TestResult
    tests: List[TestResult]
    reason: str
    score: float


class _RewardItemBase(TypedDict):
    id: Any
    group: str
    reward: Optional[float]
    status: str
    passed: int
    total: int


class RewardItemResult(_RewardItemBase, total=False):
    """One rollout of ``/v1/rewards``: ``reward`` is None when Crucible could not judge it (never 0)."""

    details: Dict[str, Any]


class RewardGroup(TypedDict):
    """Statistics of one GRPO group of a batch."""

    group: str
    size: int
    rewarded: int
    complete: bool
    mean: Optional[float]
    std: Optional[float]
    populationStd: Optional[float]
    allEqual: Optional[bool]


class RewardSummary(TypedDict):
    count: int
    internalErrors: int
    statuses: Dict[str, int]


class RewardsResult(TypedDict):
    """The answer of ``POST /v1/rewards``: items in request order, groups, a summary."""

    items: List[RewardItemResult]
    groups: List[RewardGroup]
    summary: RewardSummary


class ProblemInfo(TypedDict):
    """A problem the server loaded (``GET /v1/problems``): the id a request names (the bare task id when one loaded
    file has it, else ``<file>:<taskId>``), its always-valid ``<file>:<taskId>``, its file's name, kind, tests, default
    language."""

    id: str
    qualifiedId: str
    dataset: str
    kind: str
    testCount: int
    language: str


class ProblemsPage(TypedDict):
    problems: List[ProblemInfo]
    total: int
    offset: int
    next: Optional[int]
