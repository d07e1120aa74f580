"""verl's SandboxFusion reward path against `crucible serve` (usage: verl_sandbox_fusion.py BASE_URL).

Calls verl's own code (volcengine/verl b178a3c, ../shared/clients/volcengine+verl):
`verl.utils.reward_score.sandbox_fusion.compute_score` (extracts the code from the completion, one /run_code
per test case, score = fraction passed) and `check_correctness` (per-case results: True, False, -1 api or
sandbox error, -2 runtime error, -3 time-out, -4 compile error). Prints one JSON object of scores and statuses.
"""
import json
import sys
import threading

from verl.utils.reward_score.sandbox_fusion import compute_score
from verl.utils.reward_score.sandbox_fusion.utils import check_correctness

url = sys.argv[1].rstrip("/") + "/run_code"
tests = {"inputs": ["1 2\n", "5 5\n"], "outputs": ["3\n", "10\n"]}
semaphore = threading.Semaphore(8)
fence = lambda code, tag="python": f"Here is my solution.\n```{tag}\n{code}\n```"  # noqa: E731


def score(code, timeout=10):
    value, metadata = compute_score(url, semaphore, 1024, fence(code), json.dumps(tests), timeout=timeout)
    return {"score": value, "statuses": [m.get("status") for m in metadata]}


out = {
    "correct": score("a, b = map(int, input().split())\nprint(a + b)"),
    "wrong": score("a, b = map(int, input().split())\nprint(a - b)"),
    "time_limit": score("while True:\n    pass", timeout=1),
    "sleeper": score("import time\ntime.sleep(5)\nprint(3)", timeout=1),
    "runtime_error": score("raise ValueError('boom')"),
}
results, metadata = check_correctness(url, tests, "int main( {", timeout=10, language="cpp")
out["compile_error"] = {"results": results, "statuses": [m.get("status") for m in metadata]}
results, metadata = check_correctness(url, tests, "#include <cstdio>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}",
                                      timeout=10, language="cpp")
out["cpp_correct"] = {"results": results, "statuses": [m.get("status") for m in metadata]}
print(json.dumps(out))
