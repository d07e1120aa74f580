"""Client for `crucible serve`, standard library only (urllib), plus reward functions for RL trainers.

    from crucible_client import CrucibleClient, make_trl_reward, compute_score

- ``CrucibleClient(url, token)``: ``judge(...)``, ``rewards(items, reward=None)``, ``stream_rewards(...)``,
  ``health()``. Overload answers (429, 503, 504) are retried after the server's ``Retry-After``; a request is
  never turned into a reward of 0 because the verifier was busy.
- ``make_trl_reward(...)`` returns a reward function with the signature TRL's ``GRPOTrainer`` calls:
  ``reward(completions, **kwargs) -> list[float]``. TRL passes ``prompts``, ``completions`` and every dataset
  column as keyword arguments, one list entry per completion (TRL docs, "Using a custom reward function").
  Completions may be strings or conversations (lists of ``{"role", "content"}`` messages).
- ``compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> float`` has the
  signature verl calls for ``custom_reward_function`` (verl ``verl/utils/reward_score/__init__.py``,
  ``default_compute_score(data_source, solution_str, ground_truth, extra_info=None, ...)``). Server address and
  token come from ``CRUCIBLE_URL`` (default http://127.0.0.1:8080) and ``CRUCIBLE_TOKEN``.

Labels (the dataset column that says how to judge, ``ground_truth`` for verl): a problem id loaded on the server
(``"HumanEval/0"``), or a JSON object (string or dict) with ``problem`` or ``tests`` (``[{"input", "output"}]``),
optional ``language``, ``comparator``, ``timeLimitMs`` and ``reward`` (a reward spec; default binary). This is
the label format of the OpenRLHF endpoint too (docs/API.md).

When Crucible itself fails on a sample (status ``internal_error``) there is no reward to give: the functions
raise ``CrucibleInternalError`` (default), or with ``on_error="none"`` return ``None`` for that sample, which
recent TRL versions treat as a missing reward instead of a 0.
"""

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, Iterator, List, Optional

from crucible_types import ProblemsPage, RewardsResult, Verdict

__all__ = [
    "CrucibleClient",
    "CrucibleError",
    "CrucibleInternalError",
    "CrucibleOverloaded",
    "parse_label",
    "make_trl_reward",
    "compute_score",
]

DEFAULT_URL = "http://127.0.0.1:8080"
RETRY_STATUSES = (429, 503, 504)
LABEL_FIELDS = ("problem", "tests", "language", "comparator", "timeLimitMs", "memoryLimitKiB")


class CrucibleError(Exception):
    """An error answer from the server (``code`` from its error catalog, ``status`` the HTTP status)."""

    def __init__(self, message, code=None, status=None, body=None):
        super().__init__(message)
        self.code = code
        self.status = status
        self.body = body


class CrucibleOverloaded(CrucibleError):
    """The server stayed overloaded through every retry."""


class CrucibleInternalError(CrucibleError):
    """Crucible could not judge a sample; its reward is unknown (never 0)."""


class CrucibleClient:
    """A small HTTP client. ``timeout`` is seconds per attempt; overload retries wait ``Retry-After``
    (capped at ``max_retry_wait`` seconds) up to ``max_retries`` times."""

    def __init__(self, url=None, token=None, timeout=600.0, max_retries=10, max_retry_wait=60.0):
        self.url = (url or os.environ.get("CRUCIBLE_URL") or DEFAULT_URL).rstrip("/")
        self.token = token if token is not None else os.environ.get("CRUCIBLE_TOKEN") or None
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait

    # -- transport -----------------------------------------------------------------------------------------

    def _open(self, method, path, body=None, accept="application/json", extra_headers=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Accept": accept, **(extra_headers or {})}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        last = None
        for attempt in range(self.max_retries + 1):
            request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)
            except urllib.error.HTTPError as error:
                payload = _read_json(error)
                info = (payload or {}).get("error", {}) if isinstance(payload, dict) else {}
                message = info.get("message") or "HTTP %d" % error.code
                if error.code in RETRY_STATUSES and attempt < self.max_retries:
                    last = CrucibleOverloaded(message, info.get("code"), error.code, payload)
                    time.sleep(_retry_after(error.headers.get("Retry-After"), attempt, self.max_retry_wait))
                    continue
                if error.code in RETRY_STATUSES:
                    raise CrucibleOverloaded(message, info.get("code"), error.code, payload) from None
                if error.code == 500 or info.get("code") == "internal_error":
                    raise CrucibleInternalError(message, info.get("code"), error.code, payload) from None
                raise CrucibleError(message, info.get("code"), error.code, payload) from None
        raise last or CrucibleOverloaded("server overloaded")

    def _json(self, method, path, body=None, extra_headers=None):
        with self._open(method, path, body, extra_headers=extra_headers) as response:
            return json.loads(response.read().decode("utf-8"))

    # -- API -----------------------------------------------------------------------------------------------

    def health(self):
        """The server's /health body, whatever its status: ``status`` is "ok", "degraded" (with ``reason``: the
        self-test of the sandbox or the harness failed) or "draining". Never retried: a 503 here is an answer."""
        request = urllib.request.Request(self.url + "/health", headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            payload = _read_json(error)
            if isinstance(payload, dict) and "status" in payload:
                return payload
            raise CrucibleError("HTTP %d" % error.code, None, error.code, payload) from None

    def judge(self, response: Optional[str] = None, code: Optional[str] = None, problem: Optional[str] = None,
              tests: Optional[List[Dict[str, str]]] = None, language: Optional[str] = None, detail: Optional[str] = None,
              **fields: Any) -> Verdict:
        """Judge one submission (``/v1/judge``); returns the verdict (counts and the first failing test; every
        test's result with ``detail="tests"``). Raises ``CrucibleInternalError`` when Crucible failed (HTTP 500)."""
        body = _drop_none(dict(response=response, code=code, problem=problem, tests=tests, language=language, detail=detail, **fields))
        return self._json("POST", "/v1/judge", body)

    def rewards(self, items: Iterable[Dict[str, Any]], reward: Optional[Dict[str, Any]] = None, step: Optional[int] = None,
                training_run: Optional[str] = None, batch_id: Optional[str] = None) -> RewardsResult:
        """Reward a batch (``/v1/rewards``): ``{"items": [...], "groups": [...], "summary": {...}}``; items in
        request order. An item whose ``reward`` is ``None`` could not be judged (status ``internal_error``).
        ``step`` is the trainer step, ``training_run`` the run the dashboard files the rollouts under (default the
        server's ``--training-run``), ``batch_id`` an idempotency key: a batch sent again with it is counted once."""
        body: Dict[str, Any] = {"items": list(items)}
        if reward is not None:
            body["reward"] = reward
        body.update(_drop_none(dict(step=step, trainingRun=training_run, batchId=batch_id)))
        return self._json("POST", "/v1/rewards", body)

    def problems(self, offset: int = 0, limit: int = 100, kind: Optional[str] = None) -> ProblemsPage:
        """The problems the server loaded (``GET /v1/problems``), ``limit`` at a time from ``offset``."""
        query = urllib.parse.urlencode(_drop_none(dict(offset=offset, limit=limit, kind=kind)))
        return self._json("GET", "/v1/problems?" + query)

    def stream_rewards(self, items: Iterable[Dict[str, Any]], reward: Optional[Dict[str, Any]] = None) -> Iterator[Dict[str, Any]]:
        """Like ``rewards`` but yields NDJSON lines as the server finishes them: ``{"kind": "item", ...}``,
        ``{"kind": "group", ...}`` and a final ``{"kind": "summary", ...}``."""
        body = {"items": list(items)}
        if reward is not None:
            body["reward"] = reward
        with self._open("POST", "/v1/rewards", body, accept="application/x-ndjson") as response:
            for line in response:
                line = line.strip()
                if line:
                    yield json.loads(line.decode("utf-8"))


def _read_json(error):
    try:
        return json.loads(error.read().decode("utf-8"))
    except (ValueError, OSError):
        return None


def _retry_after(header, attempt, cap):
    try:
        seconds = float(header)
    except (TypeError, ValueError):
        seconds = min(2.0 ** attempt, cap)
    return max(0.0, min(seconds, cap))


def _drop_none(d):
    return {k: v for k, v in d.items() if v is not None}


def parse_label(label):
    """A label (problem id, JSON string or dict) -> dict with ``problem`` or ``tests`` and optional fields."""
    if isinstance(label, dict):
        value = dict(label)
    elif isinstance(label, str):
        text = label.strip()
        value = json.loads(text) if text.startswith("{") else {"problem": text}
    else:
        raise ValueError("a label is a problem id, a JSON object string or a dict, got %r" % type(label).__name__)
    if ("problem" in value) == ("tests" in value):
        raise ValueError('a label needs exactly one of "problem" and "tests"')
    return value


def _item_from_label(item_id, response, label, group=None):
    item = {"id": item_id, "response": response}
    for key in LABEL_FIELDS:
        if key in label:
            item[key] = label[key]
    if "reward" in label:
        item["reward"] = label["reward"]
    if group is not None:
        item["group"] = group
    return item


def _completion_text(completion):
    """TRL completions are strings (standard format) or message lists (conversational format)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion:
        last = completion[-1]
        if isinstance(last, dict):
            return str(last.get("content", ""))
    if isinstance(completion, dict):
        return str(completion.get("content", ""))
    raise ValueError("unsupported completion type %r" % type(completion).__name__)


def _labels_from_columns(kwargs, n, label_column):
    if label_column in kwargs:
        return [parse_label(x) for x in kwargs[label_column]]
    if "task_id" in kwargs:
        return [{"problem": str(x)} for x in kwargs["task_id"]]
    if "tests" in kwargs:
        return [{"tests": x} if not isinstance(x, str) else {"tests": json.loads(x)} for x in kwargs["tests"]]
    raise KeyError('no label column: pass a "%s", "task_id" or "tests" dataset column' % label_column)


def make_trl_reward(url=None, token=None, reward=None, label_column="label", on_error="raise", client=None):
    """Build a TRL ``GRPOTrainer`` reward function ``reward(completions, **kwargs) -> list[float]``.

    The label of each completion comes from the dataset column ``label_column`` (or ``task_id`` / ``tests``).
    Completions of the same prompt form one group (``kwargs["prompts"]``), so the server reports the group
    statistics trainers use for dynamic sampling. ``reward`` is the reward spec (default binary).
    ``on_error``: ``"raise"`` (default) or ``"none"`` (``None`` for samples Crucible could not judge)."""
    if on_error not in ("raise", "none"):
        raise ValueError('on_error must be "raise" or "none"')
    client = client or CrucibleClient(url, token)

    def crucible_reward(completions, **kwargs):
        texts = [_completion_text(c) for c in completions]
        labels = _labels_from_columns(kwargs, len(texts), label_column)
        prompts = kwargs.get("prompts")
        group_of = {}
        items = []
        for i, (text, label) in enumerate(zip(texts, labels)):
            group = None
            if prompts is not None:
                key = json.dumps(prompts[i], sort_keys=True, default=str)
                group = group_of.setdefault(key, "prompt-%d" % len(group_of))
            items.append(_item_from_label(i, text, label, group))
        result = client.rewards(items, reward)
        out = []
        for answered in result["items"]:
            if answered["reward"] is None:
                if on_error == "raise":
                    reason = answered.get("details", {}).get("reason", "crucible failed")
                    raise CrucibleInternalError("no reward for completion %s: %s" % (answered["id"], reason), "internal_error")
                out.append(None)
            else:
                out.append(float(answered["reward"]))
        return out

    crucible_reward.__name__ = "crucible_reward"
    return crucible_reward


_DEFAULT_CLIENT = None


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl ``custom_reward_function``: the reward of ``solution_str`` under the label ``ground_truth``.
    ``extra_info`` may carry ``language`` and ``reward`` (spec); ``data_source`` is not used. Raises
    ``CrucibleInternalError`` when Crucible could not judge the sample."""
    global _DEFAULT_CLIENT
    if _DEFAULT_CLIENT is None:
        _DEFAULT_CLIENT = CrucibleClient()
    label = parse_label(ground_truth)
    if isinstance(extra_info, dict):
        for key in ("language", "reward"):
            if key in extra_info and key not in label:
                label[key] = extra_info[key]
    result = _DEFAULT_CLIENT.rewards([_item_from_label(0, solution_str, label)])
    item = result["items"][0]
    if item["reward"] is None:
        raise CrucibleInternalError("no reward: %s" % item.get("details", {}).get("reason", "crucible failed"), "internal_error")
    return float(item["reward"])
