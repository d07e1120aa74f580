"""open-r1's Piston client against `crucible serve` (usage: open_r1_piston.py BASE_URL).

Uses open-r1's own `PistonClient.send_execute` (huggingface/open-r1 1416fa0,
../shared/clients/huggingface+open-r1, `utils/competitive_programming/piston_client.py`: aiohttp, retries on
any non-200 with back-off) against /api/v2/execute. open-r1's Codeforces and IOI scorers send multi-file jobs for
the `codeforces` / `cms_ioi` Piston packages: those are driven by open_r1_contest.py; the single-file runs below
are the client's plain path. A pass is what open-r1 counts as
one: `run.code == 0` and the expected stdout. Prints one JSON object with the Piston fields of each case.
"""
import asyncio
import json
import sys

import aiohttp

from open_r1.utils.competitive_programming.piston_client import PistonClient


async def main():
    async with aiohttp.ClientSession() as session:
        client = PistonClient(sys.argv[1].rstrip("/") + "/api/v2", session=session, max_requests_per_endpoint=4)

        async def execute(code, language="python", stdin="1 2\n", expected="3", name="main.py", **limits):
            result = await client.send_execute({"files": [{"name": name, "content": code}], "stdin": stdin, **limits},
                                               language=language, max_retries=0)
            run = result["run"]
            compile_stage = result.get("compile")
            return {"passed": run["code"] == 0 and run["stdout"].strip() == expected, "code": run["code"],
                    "status": run["status"], "signal": run["signal"],
                    "compile_code": None if compile_stage is None else compile_stage["code"]}

        cases = {
            "correct": execute("a, b = map(int, input().split())\nprint(a + b)"),
            "wrong": execute("print(0)"),
            "time_limit": execute("while True:\n    pass", run_cpu_time=500, run_timeout=3000),
            "runtime_error": execute("raise ValueError('boom')"),
            "compile_error": execute("int main( {", language="cpp", name="main.cpp"),
            "cpp_correct": execute("#include <cstdio>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}",
                                   language="cpp", name="main.cpp"),
        }
        results = await asyncio.gather(*cases.values())
        print(json.dumps(dict(zip(cases.keys(), results))))


asyncio.run(main())
