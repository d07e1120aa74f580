"""Crucible sessions (multi-turn environments) from Python, standard library only.

    from crucible_sessions import CrucibleSession, program_task, extract_code

- ``CrucibleSession(environment, task=None, limits=None, ttl_seconds=None, client=None)``: one session of
  ``crucible serve`` (``POST /v1/sessions``, ``/step``, ``/reset``, ``DELETE``; docs/API.md "Sessions").
  ``open()`` -> first answer; ``step(action)`` -> ``{"observation", "reward", "done", "info"}``; ``reset()``;
  ``close()`` (idempotent). A context manager.
- ``program_task(label)``: a trainer label (problem id, JSON string or dict with ``problem`` or ``tests``, as
  ``crucible_client.parse_label`` reads it) -> the ``task`` of a ``program`` session. A label's
  ``"visibleTests"`` (``"all"``, ``"none"`` or test indices) is kept: by default every test is hidden and feedback
  shows no test's input or expected output (docs/API.md "Feedback and hidden tests").
- ``extract_code(text)``: the code of a model's turn (its last fenced block, else the whole text).
- ``observation_text(observation)``: what a model reads after a step (feedback of a submit, else the output).

A step whose observation is ``internal_error`` (Crucible failed, not the program) raises ``CrucibleInternalError``:
there is no observation or reward to train on. The trainer adapters (``crucible_gym``, ``crucible_verl``,
``crucible_openrlhf``) are built on this module.
"""

import re

from crucible_client import CrucibleClient, CrucibleInternalError, parse_label

__all__ = ["CrucibleSession", "program_task", "extract_code", "observation_text"]

_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.DOTALL)
_TASK_FIELDS = ("problem", "tests", "comparator", "timeLimitMs", "memoryLimitKiB", "language", "visibleTests")


def program_task(label):
    """The ``task`` of a ``program`` session from a label (see the module docstring)."""
    value = parse_label(label)
    return {k: value[k] for k in _TASK_FIELDS if k in value}


def extract_code(text):
    """The last fenced code block of ``text`` (```` ```python ... ``` ````), else ``text`` itself."""
    blocks = _FENCE.findall(text or "")
    return blocks[-1] if blocks else (text or "")


def observation_text(observation):
    """A step's observation as text for a model: a submit's feedback, else stdout, stderr and any notice."""
    if observation.get("feedback"):
        return observation["feedback"]
    parts = []
    if observation.get("stdout"):
        parts.append(observation["stdout"])
    if observation.get("stderr"):
        parts.append(observation["stderr"])
    status = observation.get("status")
    if status and status != "ok":
        parts.append("[status: %s%s]" % (status, ": " + observation["reason"] if observation.get("reason") else ""))
    if observation.get("notice"):
        parts.append("[notice: %s]" % observation["notice"])
    return "\n".join(p.rstrip("\n") for p in parts)


class CrucibleSession:
    """One session on a Crucible server. ``limits`` and ``ttl_seconds`` as the API takes them (per-step
    ``cpuMs``, ``wallMs``, ``memoryKiB``, ..., ``maxSteps``, ``feedbackChars``)."""

    def __init__(self, environment, task=None, limits=None, ttl_seconds=None, client=None, url=None, token=None):
        self.environment = environment
        self.task = task
        self.limits = limits
        self.ttl_seconds = ttl_seconds
        self.client = client or CrucibleClient(url, token)
        self.id = None
        self.info = None

    def open(self):
        """Create the session; returns ``{"id", "observation", "info"}``."""
        body = {"environment": self.environment}
        if self.task is not None:
            body["task"] = self.task
        if self.limits is not None:
            body["limits"] = self.limits
        if self.ttl_seconds is not None:
            body["ttlSeconds"] = self.ttl_seconds
        answer = self.client._json("POST", "/v1/sessions", body)
        self.id = answer["id"]
        self.info = answer["info"]
        return answer

    def _checked(self, answer):
        self.info = answer.get("info", self.info)
        observation = answer.get("observation", {})
        if observation.get("status") == "internal_error":
            raise CrucibleInternalError("crucible failed on a step of session %s: %s" % (self.id, observation.get("reason")),
                                        "internal_error", None, answer)
        return answer

    def step(self, action):
        """One action: a string (python code, a command line, SQL) or, for ``program``, ``{"kind": "run", "code",
        "stdin"?}`` / ``{"kind": "submit", "code"}``. Returns ``{"observation", "reward", "done", "info"}``."""
        if self.id is None:
            raise RuntimeError("the session is not open")
        return self._checked(self.client._json("POST", "/v1/sessions/%s/step" % self.id, {"action": action}))

    def reset(self):
        """A pristine environment of the same task; returns ``{"id", "observation", "info"}``."""
        if self.id is None:
            return self.open()
        return self._checked(self.client._json("POST", "/v1/sessions/%s/reset" % self.id, {}))

    def close(self):
        """Delete the session (its processes, files and cgroups go); a no-op when it is not open."""
        if self.id is None:
            return
        session_id, self.id = self.id, None
        try:
            self.client._json("DELETE", "/v1/sessions/%s" % session_id)
        except Exception as error:  # an evicted session is gone already
            if getattr(error, "code", None) != "unknown_session":
                raise

    def __enter__(self):
        if self.id is None:
            self.open()
        return self

    def __exit__(self, *exc):
        self.close()
        return False
