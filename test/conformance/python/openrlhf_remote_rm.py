"""OpenRLHF's remote reward path against `crucible serve` (usage: openrlhf_remote_rm.py BASE_URL).

Runs OpenRLHF's own `SingleTurnAgentExecutor.execute` (OpenRLHF 3c3be62, ../shared/clients/OpenRLHF+OpenRLHF,
`openrlhf/utils/agent.py`) with `remote_rm_url` = /get_reward: it tokenizes the prompt, asks the engine for a
continuation, decodes prompt + response with special tokens kept (so the query ends with the model's end token)
and posts {query, prompts, labels}. The engine and tokenizer here are minimal stand-ins (a character-level
tokenizer whose decode keeps "<|im_end|>" as text, an engine that answers a fixed response), because vLLM and
transformers cannot be installed; the HTTP client and the reward bookkeeping are OpenRLHF's. Prints one JSON
object: per case the reward, scores and extra_logs, and whether every extra_logs value is a list of numbers
(OpenRLHF makes a tensor of each).
"""
import asyncio
import json
import sys
from types import SimpleNamespace

from openrlhf.utils.agent import SingleTurnAgentExecutor

url = sys.argv[1].rstrip("/") + "/get_reward"
END = "<|im_end|>"


class Ids(list):
    def tolist(self):
        return list(self)


class CharTokenizer:
    """One token per character; decode joins them back, special tokens included (skip_special_tokens=False)."""

    def __call__(self, text, add_special_tokens=False, return_tensors=None):
        return {"input_ids": [Ids(ord(c) for c in text)]}

    def decode(self, ids, skip_special_tokens=False):
        return "".join(chr(i) for i in ids)


class FixedEngine:
    """Answers one fixed response (the rollout under test), ended by the chat end token as vLLM leaves it."""

    def __init__(self, response):
        self.response = response

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        tokens = [ord(c) for c in self.response + END]
        return SimpleNamespace(outputs=[SimpleNamespace(token_ids=tokens, finish_reason="stop", logprobs=None)])


PROMPT = "<|im_start|>user\nRead two integers and print their sum.<|im_end|>\n<|im_start|>assistant\n"
LABEL = json.dumps({"tests": [{"input": "1 2\n", "output": "3\n"}, {"input": "5 5\n", "output": "10\n"}],
                    "language": "python", "timeLimitMs": 1000})
CPP_LABEL = json.dumps({"tests": [{"input": "1 2\n", "output": "3\n"}], "language": "cpp"})


def fenced(code, tag="python"):
    return f"Here you go:\n```{tag}\n{code}\n```"


def numeric(logs):
    return all(isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
               for v in logs.values())


async def reward(response, label=LABEL):
    executor = SingleTurnAgentExecutor(remote_rm_url=url)
    params = SimpleNamespace(max_tokens=4096, logprobs=None)
    output = await executor.execute(PROMPT, label, params, 8192, CharTokenizer(), FixedEngine(response))
    logs = output.get("extra_logs") or {}
    return {"reward": output["reward"], "scores": output["scores"], "numeric_logs": numeric(logs),
            "status": [k[len("status_"):] for k, v in logs.items() if k.startswith("status_") and v == [1]]}


async def main():
    cases = {
        "correct": reward(fenced("a, b = map(int, input().split())\nprint(a + b)")),
        "wrong": reward(fenced("a, b = map(int, input().split())\nprint(a * b)")),
        "time_limit": reward(fenced("while True:\n    pass")),
        "runtime_error": reward(fenced("raise ValueError('boom')")),
        "compile_error": reward(fenced("int main( {", "cpp"), CPP_LABEL),
        "no_code": reward("I do not know."),
    }
    results = await asyncio.gather(*cases.values())
    print(json.dumps(dict(zip(cases.keys(), results))))


asyncio.run(main())
