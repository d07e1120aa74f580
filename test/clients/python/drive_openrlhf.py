"""Drive crucible_openrlhf.AgentInstance through OpenRLHF's multi-turn agent protocol against a running server
(argv[1], token argv[2]). The protocol is replayed from its contract (argv[3],
test/conformance/contracts/openrlhf-agent.json: MultiTurnAgentExecutor's episode loop and AgentInstanceBase's
methods, read from OpenRLHF's openrlhf/utils/agent.py); no OpenRLHF code runs. The LLM engine and tokenizer are
stand-ins (no model here): the engine answers a wrong program first, then a right one; the tokenizer maps characters
to ids. Prints one JSON object."""
import asyncio
import copy
import inspect
import json
import os
import sys

os.environ["CRUCIBLE_URL"] = sys.argv[1]
os.environ["CRUCIBLE_TOKEN"] = sys.argv[2]
with open(sys.argv[3]) as f:
    CONTRACT = json.load(f)

import crucible_openrlhf  # noqa: E402

TURNS = [
    "Let me try.\n```python\na, b = map(int, input().split())\nprint(a - b)\n```",
    "Fixed.\n```python\na, b = map(int, input().split())\nprint(a + b)\n```",
]


def tokenize(text):
    """Characters as token ids."""
    return [ord(c) for c in text]


class Output:
    def __init__(self, text):
        self.text = text
        self.token_ids = tokenize(text)


class Engine:
    def __init__(self):
        self.prompts = []

    async def generate(self, tokens, sampling_params):
        self.prompts.append("".join(chr(t) for t in tokens))
        return Output(TURNS[min(len(self.prompts) - 1, len(TURNS) - 1)])


class SamplingParams:
    max_tokens = 4096


def signatures(cls):
    """{method: [is a coroutine, positional parameter names, takes **kwargs]}, the contract's format."""
    out = {}
    for name in CONTRACT["instance"]["methods"]:
        if name == "format":
            continue
        fn = getattr(cls, name)
        params = list(inspect.signature(fn).parameters.values())
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        out[name] = [inspect.iscoroutinefunction(fn), positional, any(p.kind == p.VAR_KEYWORD for p in params)]
    return out


async def episode(agent_cls, prompt, label, sampling_params, max_length, engine):
    """One prompt's episode, step by step as the contract's `episode` says the executor runs it."""
    instance = agent_cls()
    observation = (await instance.reset({"observation": prompt, "label": label}))["observation"]
    tokens = tokenize(observation)
    action_ranges, total_reward, scores, extra_logs, unknown_keys = [], 0.0, 0.0, {}, set()
    while True:
        sampling_params.max_tokens = max_length - len(tokens)
        if sampling_params.max_tokens <= 0:
            break
        output = await engine.generate(tokens, copy.deepcopy(sampling_params))
        action_ranges.append((len(tokens), len(tokens) + len(output.token_ids)))
        state = dict(zip(CONTRACT["stepInput"], [observation, output.text, label, sampling_params]))
        step = await instance.step(state)
        unknown_keys |= set(step) - set(CONTRACT["stepOutput"])
        total_reward += step["rewards"].item()
        scores = step.get("scores", total_reward)
        feedback = step["environment_feedback"]
        extra_logs = step.get("extra_logs", {})
        observation = observation + output.text + feedback
        tokens = tokens + output.token_ids + tokenize(feedback)
        if step.get("sampling_params"):
            sampling_params = step["sampling_params"]
        if step["done"]:
            break
    return {"reward": total_reward, "scores": scores, "action_ranges": action_ranges, "extra_logs": extra_logs,
            "unknown_keys": sorted(unknown_keys)}


async def main():
    engine = Engine()
    label = json.dumps({"tests": [{"input": "1 2\n", "output": "3\n"}, {"input": "4 4\n", "output": "8\n"}],
                        "visibleTests": [0]})
    wanted = {k: v for k, v in CONTRACT["instance"]["methods"].items() if k != "format"}
    result = await episode(crucible_openrlhf.AgentInstance, "Write a program that adds two integers.\n", label,
                           SamplingParams(), 100_000, engine)
    print(json.dumps({
        "agent_base": crucible_openrlhf.AGENT_BASE,
        "subclass": issubclass(crucible_openrlhf.AgentInstance, crucible_openrlhf.AgentInstanceBase),
        "signatures_match": signatures(crucible_openrlhf.AgentInstanceBase) == wanted == signatures(crucible_openrlhf.AgentInstance),
        "reward": float(result["reward"]),
        "scores": float(result["scores"]),
        "turns": len(result["action_ranges"]),
        "second_prompt": engine.prompts[1] if len(engine.prompts) > 1 else None,
        "extra_logs": {k: float(v) for k, v in result["extra_logs"].items()},
        "unknown_keys": result["unknown_keys"],
    }))


asyncio.run(main())
