"""A verl multi-turn tool (``BaseTool``) over Crucible sessions, standard library only.

verl's multi-turn rollouts call a tool through ``BaseTool`` (volcengine/verl ``verl/tools/base_tool.py``):
``create(instance_id=None, **kwargs) -> (instance_id, ToolResponse)`` once per trajectory,
``execute(instance_id, parameters, **kwargs) -> (ToolResponse, step_reward, metrics)`` per tool call,
``calc_reward(instance_id, **kwargs) -> float`` at the end, ``release(instance_id, **kwargs)``. ``CrucibleTool``
maps them onto one Crucible session per trajectory: create opens it, execute is a step, calc_reward is the
trajectory's reward, release deletes it.

verl tool config (``tools: - class_name: crucible_verl.CrucibleTool``, ``config: {...}``):
``url`` / ``token`` (default ``CRUCIBLE_URL`` / ``CRUCIBLE_TOKEN``), ``environment`` (``program`` default,
``python``, ``bash``, ``sqlite``, ``repository``: its tool is ``REPOSITORY_TOOL_SCHEMA``, one action per call, the
ground truth names the instance), ``limits`` and ``ttl_seconds`` of each session. ``create`` takes the task from
the dataset's ``tools_kwargs`` create kwargs: ``ground_truth`` (a label: problem id or ``{"tests": [...]}``, as
``crucible_client.parse_label`` reads it) or ``task`` (the session's task as the API takes it).

Tool parameters (the default schema, ``DEFAULT_TOOL_SCHEMA``): ``code`` (required), ``mode`` (``program``:
``"submit"`` judges the code on the task's tests, default; ``"run"`` runs it once on ``stdin``), ``stdin``.
Rewards: a submit's step reward is the server's (1.0 passed, else 0.0), a run's 0.0; ``calc_reward`` is the best
submit reward of the trajectory (0.0 when nothing was submitted or for environments without rewards).

Base class: verl's own ``BaseTool`` and ``ToolResponse`` when ``verl.tools.base_tool`` imports (verl installed,
pydantic v2); otherwise a fallback with the same methods and signatures (``_FallbackBaseTool``), so this file
also runs where verl cannot be imported (e.g. this repository's tests: verl needs torch-side modules and pydantic
v2). ``VERL_BASE`` says which one is in use.
"""

import asyncio
import uuid

from crucible_client import CrucibleClient
from crucible_sessions import CrucibleSession, observation_text, program_task, repository_task

try:  # verl's own base class and response type, when verl is importable
    from verl.tools.base_tool import BaseTool as _Base
    from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

    VERL_BASE = True
except Exception:  # noqa: BLE001 - any import failure (verl missing, torch, pydantic v1) means the fallback
    VERL_BASE = False
    OpenAIFunctionToolSchema = None

    class ToolResponse:
        """verl's ``ToolResponse`` shape: ``text``, ``image``, ``video`` (each optional)."""

        def __init__(self, text=None, image=None, video=None):
            self.text = text
            self.image = image
            self.video = video

        def __repr__(self):
            return "ToolResponse(text=%r)" % (self.text,)

    class _Base:
        """Structurally identical to verl's ``BaseTool`` (same methods, same signatures, same defaults)."""

        def __init__(self, config, tool_schema):
            self.config = config
            self.tool_schema = tool_schema or self.get_openai_tool_schema()
            assert self.tool_schema is not None, "Tool schema is not set!"
            self.name = self.tool_schema["function"]["name"]

        def get_openai_tool_schema(self):
            return self.tool_schema

        async def create(self, instance_id=None, **kwargs):
            return (instance_id or str(uuid.uuid4())), ToolResponse()

        async def execute(self, instance_id, parameters, **kwargs):
            return ToolResponse(text="Updated the tool state."), 0.0, {}

        async def calc_reward(self, instance_id, **kwargs):
            return 0.0

        async def release(self, instance_id, **kwargs):
            return None

__all__ = ["CrucibleTool", "DEFAULT_TOOL_SCHEMA", "VERL_BASE", "ToolResponse"]

DEFAULT_TOOL_SCHEMA = {
    "type": "function",
    "function": {
        "name": "crucible",
        "description": "Run or submit code in Crucible's sandbox. mode \"submit\" judges the code on the task's tests "
                       "and answers with the verdict and the first failing test; \"run\" runs it once on stdin.",
        "parameters": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "The whole program."},
                "mode": {"type": "string", "enum": ["submit", "run"], "description": "submit (default) or run."},
                "stdin": {"type": "string", "description": "Standard input of a run."},
            },
            "required": ["code"],
        },
    },
}


REPOSITORY_TOOL_SCHEMA = {
    "type": "function",
    "function": {
        "name": "repository",
        "description": "Work on the repository at /testbed in Crucible's sandbox: kind \"shell\" runs a command; \"view\", "
                       "\"create\", \"str_replace\", \"insert\" edit files; \"run_tests\" runs its tests; \"submit\" judges "
                       "your changes on hidden tests (the episode's reward).",
        "parameters": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["shell", "view", "create", "str_replace", "insert", "run_tests", "submit"]},
                "command": {"type": "string", "description": "shell: the command line."},
                "path": {"type": "string", "description": "view/create/str_replace/insert: the file (relative to /testbed)."},
                "view_range": {"type": "array", "items": {"type": "integer"}, "description": "view: [start, end], end -1 for the last line."},
                "file_text": {"type": "string", "description": "create: the file's text."},
                "old_str": {"type": "string", "description": "str_replace: text that occurs exactly once."},
                "new_str": {"type": "string", "description": "str_replace/insert: the new text."},
                "insert_line": {"type": "integer", "description": "insert: after this line (0: at the top)."},
            },
            "required": ["kind"],
        },
    },
}


class CrucibleTool(_Base):
    """verl ``BaseTool`` backed by one Crucible session per trajectory (see the module docstring)."""

    def __init__(self, config, tool_schema=None):
        config = dict(config or {})
        self.client = CrucibleClient(config.get("url"), config.get("token"))
        self.environment = config.get("environment", "program")
        self.limits = config.get("limits")
        self.ttl_seconds = config.get("ttl_seconds")
        self._instances = {}
        super().__init__(config, tool_schema)

    def get_openai_tool_schema(self):
        schema = REPOSITORY_TOOL_SCHEMA if self.environment == "repository" else DEFAULT_TOOL_SCHEMA
        if OpenAIFunctionToolSchema is not None:
            return OpenAIFunctionToolSchema.model_validate(schema)
        return schema

    async def create(self, instance_id=None, ground_truth=None, task=None, **kwargs):
        """Open this trajectory's session; returns ``(instance_id, ToolResponse(text=the session's message))``."""
        instance_id = instance_id or str(uuid.uuid4())
        if task is None and ground_truth is not None:
            task = repository_task(ground_truth) if self.environment == "repository" else program_task(ground_truth)
        session = CrucibleSession(self.environment, task, self.limits, self.ttl_seconds, client=self.client)
        answer = await asyncio.to_thread(session.open)
        self._instances[instance_id] = {"session": session, "reward": 0.0, "solved": False}
        return instance_id, ToolResponse(text=answer["observation"].get("message") or "")

    def _action(self, parameters):
        if self.environment == "repository":
            return {k: v for k, v in parameters.items() if v is not None}
        code = parameters.get("code", "")
        if self.environment != "program":
            return code
        if parameters.get("mode", "submit") == "run":
            return {"kind": "run", "code": code, "stdin": parameters.get("stdin", "")}
        return {"kind": "submit", "code": code}

    async def execute(self, instance_id, parameters, **kwargs):
        """One step; returns ``(ToolResponse(text=observation), step_reward, metrics)``."""
        state = self._instances[instance_id]
        if state["solved"]:
            return ToolResponse(text="The task is already solved; nothing was run."), 0.0, {"status": "solved"}
        answer = await asyncio.to_thread(state["session"].step, self._action(parameters or {}))
        observation = answer["observation"]
        reward = answer.get("reward")
        step_reward = float(reward) if reward is not None else 0.0
        if reward is not None:
            state["reward"] = max(state["reward"], step_reward)
            state["solved"] = state["solved"] or step_reward >= 1.0
        metrics = {"status": observation.get("status"), "cpu_ms": observation.get("cpuMs"), "done": bool(answer.get("done"))}
        return ToolResponse(text=observation_text(observation)), step_reward, metrics

    async def calc_reward(self, instance_id, **kwargs):
        """The best submit reward of the trajectory (0.0 when nothing passed or was submitted)."""
        return self._instances[instance_id]["reward"]

    async def release(self, instance_id, **kwargs):
        """Delete the session; releasing an unknown instance is a no-op."""
        state = self._instances.pop(instance_id, None)
        if state is not None:
            await asyncio.to_thread(state["session"].close)
