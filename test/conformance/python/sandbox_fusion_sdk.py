"""SandboxFusion's own Python SDK against `crucible serve` (usage: sandbox_fusion_sdk.py BASE_URL).

Calls the SDK's `run_code` (bytedance/SandboxFusion 469de08, ../shared/clients/bytedance+SandboxFusion: a
pydantic RunCodeRequest posted to /run_code, the answer parsed into RunCodeResponse, non-200 answers and
SandboxError retried by tenacity). Prints one JSON object: per case the status, the run and compile statuses,
return codes and stdout (SandboxFusion's `pytest` mode and `files` among them); for a refused language, what the
SDK raised.
"""
import base64
import json
import sys

from sandbox_fusion import RunCodeRequest, run_code

endpoint = sys.argv[1].rstrip("/")


def run(code, language="python", stdin="", run_timeout=10, files=None):
    response = run_code(RunCodeRequest(code=code, language=language, stdin=stdin, run_timeout=run_timeout,
                                       files=files or {}), endpoint=endpoint, max_attempts=1)
    step = lambda r: None if r is None else {"status": r.status.value, "return_code": r.return_code, "stdout": r.stdout}  # noqa: E731
    return {"status": response.status.value, "run": step(response.run_result), "compile": step(response.compile_result)}


def refused(code, language):
    """The SDK raises on a non-200 answer (after max_attempts); return what it raised."""
    try:
        run(code, language=language)
    except Exception as error:  # noqa: BLE001 - the SDK raises a bare Exception
        return str(error)
    return None


out = {
    "correct": run("a, b = map(int, input().split())\nprint(a + b)", stdin="20 22\n"),
    "wrong": run("print(0)", stdin="20 22\n"),
    "time_limit": run("while True:\n    pass", run_timeout=1),
    "sleeper": run("import time\ntime.sleep(4)\nprint('slept')", run_timeout=1),
    "runtime_error": run("import sys\nsys.exit(3)"),
    "compile_error": run("int main( {", language="cpp"),
    "pytest_pass": run("def test_add():\n    assert 1 + 2 == 3\n", language="pytest"),
    "pytest_fail": run("def test_add():\n    assert 1 + 2 == 4\n\ndef test_ok():\n    pass\n", language="pytest"),
    "files": run("print(open('data/in.txt').read().strip())",
                 files={"data/in.txt": base64.b64encode(b"from a file\n").decode()}),
    "refused": refused("print(1)", "cuda"),
}
print(json.dumps(out))
