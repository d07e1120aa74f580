"""Drive crucible_verl.CrucibleTool as verl's multi-turn rollout does (create, execute..., calc_reward, release)
against a running server (argv[1]), and compare the fallback base with verl's BaseTool signatures as its contract
records them (argv[2], test/conformance/contracts/verl-base-tool.json, read from verl's verl/tools/base_tool.py)."""
import asyncio
import inspect
import json
import sys

import crucible_verl
from crucible_client import CrucibleClient, CrucibleError

URL, CONTRACT = sys.argv[1], sys.argv[2]
TOKEN = sys.argv[3] if len(sys.argv) > 3 else None
LABEL = json.dumps({"tests": [{"input": "1 2\n", "output": "3\n"}, {"input": "5 5\n", "output": "10\n"}],
                    "visibleTests": "all"})


def verl_signatures(path):
    """{method: [is_async, [arg names], default count, has **kwargs]} of verl's BaseTool, from its contract."""
    with open(path) as f:
        return json.load(f)["signatures"]["methods"]


def our_signatures(cls):
    out = {}
    for name in ("__init__", "get_openai_tool_schema", "create", "execute", "calc_reward", "release"):
        fn = getattr(cls, name)
        params = list(inspect.signature(fn).parameters.values())
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        out[name] = [inspect.iscoroutinefunction(fn), [p.name for p in positional],
                     sum(1 for p in positional if p.default is not p.empty), any(p.kind == p.VAR_KEYWORD for p in params)]
    return out


async def main():
    out = {"verl_base": crucible_verl.VERL_BASE}
    base = crucible_verl.CrucibleTool.__mro__[1]
    out["signatures_match"] = verl_signatures(CONTRACT) == our_signatures(base)
    out["verl_signatures"] = verl_signatures(CONTRACT)
    out["base_signatures"] = our_signatures(base)
    tool = crucible_verl.CrucibleTool({"url": URL, "token": TOKEN, "environment": "program"})
    out["name"] = tool.name
    instance_id, created = await tool.create(ground_truth=LABEL)
    out["created"] = created.text
    wrong, wrong_reward, wrong_metrics = await tool.execute(instance_id, {"code": "a, b = map(int, input().split())\nprint(a * b)"})
    out["wrong"] = {"text": wrong.text, "reward": wrong_reward, "metrics": wrong_metrics}
    ran, ran_reward, _ = await tool.execute(instance_id, {"code": "print(sum(map(int, input().split())))", "mode": "run", "stdin": "2 3\n"})
    out["run"] = {"text": ran.text, "reward": ran_reward}
    out["reward_before"] = await tool.calc_reward(instance_id)
    right, right_reward, _ = await tool.execute(instance_id, {"code": "a, b = map(int, input().split())\nprint(a + b)"})
    out["right"] = {"text": right.text, "reward": right_reward}
    out["after_solved"] = (await tool.execute(instance_id, {"code": "print(1)"}))[0].text
    out["reward"] = await tool.calc_reward(instance_id)
    session_id = tool._instances[instance_id]["session"].id
    await tool.release(instance_id)
    await tool.release(instance_id)
    try:
        CrucibleClient(URL, TOKEN)._json("POST", "/v1/sessions/%s/reset" % session_id, {})
        out["released"] = "still open"
    except CrucibleError as error:
        out["released"] = error.code
    # Two trajectories at once (verl runs many): sessions are independent.
    python_tool = crucible_verl.CrucibleTool({"url": URL, "token": TOKEN, "environment": "python"})
    a, _ = await python_tool.create()
    b, _ = await python_tool.create()
    await asyncio.gather(python_tool.execute(a, {"code": "v = 'a'"}), python_tool.execute(b, {"code": "v = 'b'"}))
    va, vb = await asyncio.gather(python_tool.execute(a, {"code": "print(v)"}), python_tool.execute(b, {"code": "print(v)"}))
    out["parallel"] = [va[0].text, vb[0].text]
    await asyncio.gather(python_tool.release(a), python_tool.release(b))
    print(json.dumps(out))


asyncio.run(main())
