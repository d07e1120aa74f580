"""Drive crucible_openrlhf.AgentInstance through OpenRLHF's own MultiTurnAgentExecutor.execute (from
../shared/clients) against a running server (argv[1]). The LLM engine and tokenizer are stand-ins (no model
here): the engine answers a wrong program first, then a right one; the tokenizer maps characters to ids."""
import asyncio
import json
import os
import sys

os.environ["CRUCIBLE_URL"] = sys.argv[1]
if len(sys.argv) > 2:
    os.environ["CRUCIBLE_TOKEN"] = sys.argv[2]

import crucible_openrlhf  # noqa: E402
from openrlhf.utils.agent import MultiTurnAgentExecutor  # noqa: E402

TURNS = [
    "Let me try.\n```python\na, b = map(int, input().split())\nprint(a - b)\n```",
    "Fixed.\n```python\na, b = map(int, input().split())\nprint(a + b)\n```",
]


class Ids(list):
    def tolist(self):
        return list(self)


class Tokenizer:
    """Characters as token ids (what the executor needs: __call__(...)["input_ids"][0].tolist() and decode)."""

    def __call__(self, text, add_special_tokens=False, return_tensors=None):
        return {"input_ids": [Ids(ord(c) for c in text)]}

    def decode(self, ids, skip_special_tokens=False):
        return "".join(chr(i) for i in ids)


class Output:
    def __init__(self, text):
        self.text = text
        self.token_ids = [ord(c) for c in text]
        self.logprobs = None


class Engine:
    def __init__(self):
        self.prompts = []

    async def generate(self, tokens, sampling_params, multi_modal_data=None):
        self.prompts.append("".join(chr(t) for t in tokens))
        text = TURNS[min(len(self.prompts) - 1, len(TURNS) - 1)]
        return type("RequestOutput", (), {"outputs": [Output(text)]})()


class SamplingParams:
    max_tokens = 4096
    logprobs = None


async def main():
    engine = Engine()
    label = json.dumps({"tests": [{"input": "1 2\n", "output": "3\n"}, {"input": "4 4\n", "output": "8\n"}]})
    executor = crucible_openrlhf.AgentExecutor()
    assert isinstance(executor, MultiTurnAgentExecutor)
    result = await executor.execute("Write a program that adds two integers.\n", label, SamplingParams(), 100_000, Tokenizer(), engine)
    print(json.dumps({
        "agent_base": crucible_openrlhf.AGENT_BASE,
        "reward": float(result["reward"]),
        "scores": float(result["scores"]),
        "turns": len(result["action_ranges"]),
        "second_prompt": engine.prompts[1] if len(engine.prompts) > 1 else None,
        "extra_logs": {k: float(v) for k, v in result["extra_logs"].items()},
    }))


asyncio.run(main())
