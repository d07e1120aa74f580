"""Drive crucible_gym.CrucibleEnv against a running server (argv[1]); print one JSON object of what it saw."""
import json
import sys

from crucible_gym import CrucibleEnv

URL = sys.argv[1]
TOKEN = sys.argv[2] if len(sys.argv) > 2 else None
TESTS = [{"input": "1 2\n", "output": "3\n"}, {"input": "5 5\n", "output": "10\n"}]
RIGHT = "Here it is:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```\n"
WRONG = "```python\na, b = map(int, input().split())\nprint(a + b if a != 5 else 12)\n```"
out = {}

with CrucibleEnv("program", task={"tests": TESTS, "visibleTests": "all"}, url=URL, token=TOKEN) as env:
    text, info = env.reset()
    out["program_reset"] = text
    obs, reward, terminated, truncated, info = env.step(WRONG)
    out["program_wrong"] = {"obs": obs, "reward": reward, "terminated": terminated, "truncated": truncated,
                            "status": info["observation"]["status"]}
    obs, reward, terminated, truncated, info = env.step({"kind": "run", "code": "print(input()[::-1])", "stdin": "abc\n"})
    out["program_run"] = {"obs": obs, "reward": reward, "raw_reward": info["reward"]}
    obs, reward, terminated, truncated, info = env.step(RIGHT)
    out["program_right"] = {"obs": obs, "reward": reward, "terminated": terminated, "truncated": truncated}
    session_id = env.session.id

with CrucibleEnv("python", url=URL, token=TOKEN, limits={"maxSteps": 3}) as env:
    env.reset()
    out["python"] = [env.step("x = 40")[0], env.step("print(x + 2)")[0]]
    obs, reward, terminated, truncated, info = env.step("x")
    out["python_last"] = {"obs": obs, "terminated": terminated, "truncated": truncated}
    env.reset()
    out["python_after_reset"] = env.step("print(x)")[0]

with CrucibleEnv("bash", url=URL, token=TOKEN) as env:
    env.reset()
    env.step("cd /tmp && echo persisted > note.txt && export GREETING=hello")
    out["bash"] = env.step("cat note.txt; echo $GREETING; pwd")[0]

from crucible_client import CrucibleClient, CrucibleError  # noqa: E402
try:
    CrucibleClient(URL, TOKEN)._json("POST", "/v1/sessions/%s/step" % session_id, {"action": "1"})
    out["closed"] = "still open"
except CrucibleError as error:
    out["closed"] = error.code
print(json.dumps(out))
