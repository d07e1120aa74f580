"""A Gym-style environment over a Crucible session, standard library only (no gymnasium import needed).

    from crucible_gym import CrucibleEnv
    env = CrucibleEnv("program", task={"problem": "HumanEval/0"}, url="http://127.0.0.1:8080")
    observation, info = env.reset()
    observation, reward, terminated, truncated, info = env.step(model_text)
    env.close()

The API follows Gymnasium's ``Env`` (``reset(seed=None, options=None) -> (observation, info)``,
``step(action) -> (observation, reward, terminated, truncated, info)``, ``close()``). Observations are text, as
an LLM reads them (``crucible_sessions.observation_text``); ``info`` carries the raw server answer under
``"observation"`` and the session's ``"info"``, and ``"reward"``: the server's reward, ``None`` where the
environment gives none (``python``, ``bash``, ``sqlite``, ``program`` runs), which ``step`` reports as 0.0.

Actions: for ``python``, ``bash``, ``sqlite`` a string (``extract_code`` takes a fenced block out of model
text); for ``program`` a string is a submission (its code extracted), or a dict ``{"kind": "run", "code",
"stdin"?}`` / ``{"kind": "submit", "code"}`` as the API takes it; for ``repository`` (task ``{"problem": <instance
id>}``) a string is a ``json`` action block or a shell command (``repository_action``), or a dict ``{"kind":
"shell"|"view"|"create"|"str_replace"|"insert"|"run_tests"|"submit", ...}``; its episode ends with the submit.
``terminated`` when the task is solved (a passing submit), ``truncated`` when the session ran out of steps first.
"""

from crucible_sessions import CrucibleSession, extract_code, observation_text, repository_action

__all__ = ["CrucibleEnv"]


class CrucibleEnv:
    metadata = {"render_modes": []}

    def __init__(self, environment, task=None, limits=None, ttl_seconds=None, url=None, token=None, client=None):
        self.session = CrucibleSession(environment, task, limits, ttl_seconds, client=client, url=url, token=token)
        self.environment = environment

    def reset(self, seed=None, options=None):
        """Open the session (first call) or reset it to a pristine environment. ``seed`` is accepted for the
        Gym API; Crucible's environments are deterministic given the actions."""
        answer = self.session.open() if self.session.id is None else self.session.reset()
        observation = answer.get("observation", {})
        text = observation.get("message") or observation_text(observation)
        return text, {"observation": observation, "info": answer.get("info"), "id": answer.get("id")}

    def _action(self, action):
        if isinstance(action, dict):
            return action
        if self.environment == "repository":
            return repository_action(action)
        code = extract_code(action)
        return {"kind": "submit", "code": code} if self.environment == "program" else code

    def step(self, action):
        answer = self.session.step(self._action(action))
        observation = answer["observation"]
        reward = answer.get("reward")
        info = answer.get("info") or {}
        solved = reward is not None and reward >= 1
        done = bool(answer.get("done"))
        # A repository episode ends with its one submit, solved or not.
        submitted = self.environment == "repository" and isinstance(observation.get("verdict"), dict)
        terminated = done and (solved or submitted or info.get("stepsLeft", 1) > 0)
        truncated = done and not terminated
        return (observation_text(observation), float(reward) if reward is not None else 0.0, terminated, truncated,
                {"observation": observation, "info": info, "reward": reward})

    def close(self):
        self.session.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
