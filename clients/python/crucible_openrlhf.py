"""An OpenRLHF multi-turn agent over Crucible ``program`` sessions, standard library only.

OpenRLHF's ``MultiTurnAgentExecutor`` (OpenRLHF ``openrlhf/utils/agent.py``) makes one ``AgentInstance()`` per
prompt, calls ``await reset({"observation": prompt, "label": label})`` (-> ``{"observation": text}``), then after
every generation ``await step({"observation_text", "action_text", "label", "sampling_params"})`` and reads
``rewards`` and ``scores`` (with ``.item()``), ``environment_feedback`` (text appended to the context),
``done``, ``extra_logs`` and ``sampling_params``. Use this file as the agent file (``--agent_func_path
crucible_openrlhf.py``): it defines ``AgentInstance`` and ``AgentExecutor``.

Each prompt's ``label`` is the task (a problem id loaded on the server, or ``{"tests": [...]}``; see
``crucible_client.parse_label``). Each step submits the code of the model's turn (its last fenced block); the
reward is 1.0 when every test passes, else 0.0; the feedback names the first failing test (input, expected,
got). The episode ends on a pass or after ``CRUCIBLE_MAX_TURNS`` submissions (default 3), and the session is
deleted then. Server: ``CRUCIBLE_URL`` / ``CRUCIBLE_TOKEN``.

Base classes: OpenRLHF's own ``AgentInstanceBase`` / ``MultiTurnAgentExecutor`` when ``openrlhf.utils.agent``
imports; otherwise structurally identical fallbacks (``AGENT_BASE`` says which). Rewards are ``torch.tensor``
when torch imports, else a float with ``.item()`` (all the executor calls on them).
"""

import asyncio
import os

from crucible_sessions import CrucibleSession, extract_code, observation_text, program_task, repository_action, repository_task

try:
    from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

    AGENT_BASE = True
except Exception:  # noqa: BLE001 - OpenRLHF (or aiohttp, its logging helpers) not importable: the fallback
    AGENT_BASE = False
    MultiTurnAgentExecutor = None

    class AgentInstanceBase:
        """Structurally identical to OpenRLHF's ``AgentInstanceBase``: ``reset(states, **kwargs)`` and
        ``step(state_dict, **kwargs)``, both coroutines."""

        def __init__(self, *args, **kwargs):
            pass

        async def reset(self, states, **kwargs):
            return states

        async def step(self, state_dict, **kwargs):
            raise NotImplementedError("AgentInstance.step is not implemented")

try:
    import torch

    def _scalar(value):
        return torch.tensor(float(value))
except Exception:  # noqa: BLE001
    class _Scalar(float):
        """A float with ``.item()``, the one tensor method OpenRLHF's executor calls on rewards."""

        def item(self):
            return float(self)

    def _scalar(value):
        return _Scalar(value)

__all__ = ["AgentInstance", "AgentExecutor", "AGENT_BASE", "FEEDBACK_TEMPLATE"]

FEEDBACK_TEMPLATE = ("\n\nExecution feedback:\n{feedback}\n\n"
                     "Fix the program and answer with the whole corrected program in one fenced code block.\n")


class AgentInstance(AgentInstanceBase):
    """One prompt's episode on one Crucible ``program`` session (see the module docstring)."""

    max_turns = int(os.environ.get("CRUCIBLE_MAX_TURNS", "3"))
    feedback_template = FEEDBACK_TEMPLATE

    def __init__(self, *args, client=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.client = client
        self.session = None
        self.turns = 0

    environment = os.environ.get("CRUCIBLE_ENVIRONMENT", "program")

    async def reset(self, states, **kwargs):
        """Open the session of this prompt's label; the observation is the prompt unchanged. With
        ``CRUCIBLE_ENVIRONMENT=repository`` the label names an instance and each turn is one repository action."""
        task = repository_task(states["label"]) if self.environment == "repository" else program_task(states["label"])
        self.session = CrucibleSession(self.environment, task, client=self.client)
        await asyncio.to_thread(self.session.open)
        self.turns = 0
        return {"observation": states["observation"]}

    async def step(self, state_dict, **kwargs):
        """Submit the turn's code; reward 1.0 on a pass; feedback otherwise; done on a pass or the last turn."""
        self.turns += 1
        action = (repository_action(state_dict["action_text"]) if self.environment == "repository"
                  else {"kind": "submit", "code": extract_code(state_dict["action_text"])})
        answer = await asyncio.to_thread(self.session.step, action)
        observation = answer["observation"]
        reward = float(answer["reward"]) if answer.get("reward") is not None else 0.0
        done = reward >= 1.0 or bool(answer.get("done")) or self.turns >= self.max_turns
        feedback = "" if done else self.feedback_template.format(feedback=observation_text(observation))
        if done:
            await asyncio.to_thread(self.session.close)
        return {
            "rewards": _scalar(reward),
            "scores": _scalar(reward),
            "environment_feedback": feedback,
            "done": done,
            "sampling_params": state_dict.get("sampling_params"),
            "extra_logs": {"turns": _scalar(self.turns), "passed": _scalar(1.0 if reward >= 1.0 else 0.0)},
        }


if MultiTurnAgentExecutor is not None:
    class AgentExecutor(MultiTurnAgentExecutor):
        """OpenRLHF's multi-turn executor running ``AgentInstance``."""

        def __init__(self):
            super().__init__(AgentInstance)
else:
    AgentExecutor = None
