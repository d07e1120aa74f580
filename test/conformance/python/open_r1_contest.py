"""open-r1's Codeforces and IOI scoring against `crucible serve` (usage: open_r1_contest.py BASE_URL).

Runs open-r1's OWN scorers, unmodified (huggingface/open-r1, ../shared/clients/huggingface+open-r1):
`cf_scoring.score_submission` (files `main.<lang>`, `input.txt`, `correct_output.txt`, `checker.py`,
`grader_config`, languages `c++17` / `cf_python3`) and `ioi_scoring.score_subtasks` with `ioi_utils.add_includes`
(files `graders/<id>.cpp`, the grader files, `input.txt`, `correct_output.txt`, language `cms_ioi`), through
`PistonClient` against Crucible's /api/v2/execute. Problems: test/fixtures/contest (Codeforces 1352A with a
checker; an IOI-style task with a grader, a CMS checker and two subtasks; an IOI-style Communication task with a manager). `score_submission` also looks for
generated tests in CF_TESTS_FOLDER: an empty directory here (none). Prints one JSON object.
"""
import asyncio
import json
import os
import sys
import tempfile

import aiohttp

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "contest", "fixtures")
os.environ["CF_TESTS_FOLDER"] = tempfile.mkdtemp(prefix="crucible-cf-tests-")

from open_r1.utils.competitive_programming.cf_scoring import score_submission  # noqa: E402
from open_r1.utils.competitive_programming.ioi_scoring import score_subtasks  # noqa: E402
from open_r1.utils.competitive_programming.ioi_utils import add_includes  # noqa: E402
from open_r1.utils.competitive_programming.piston_client import PistonClient  # noqa: E402


def read(*parts):
    with open(os.path.join(FIXTURES, *parts)) as f:
        return f.read()


async def main():
    async with aiohttp.ClientSession() as session:
        client = PistonClient(sys.argv[1].rstrip("/") + "/api/v2", session=session, max_requests_per_endpoint=2)

        cf_dir = "codeforces-1352A"
        cf_problem = {"id": "1352/A", "official_tests": json.loads(read(cf_dir, "tests.json")),
                      "generated_checker": read(cf_dir, "checker.py"), "time_limit": 1.0, "memory_limit": 256,
                      "input_mode": "stdio"}
        no_checker = dict(cf_problem, generated_checker=None)

        async def cf(solution, language="cpp", problem=cf_problem, mode="pass_fail", batch=1):
            return await score_submission(client, problem, read(cf_dir, "solutions", solution), test_batch_size=batch,
                                          scoring_mode=mode, submission_language=language)

        async def cf_source(source, language="cpp"):
            return await score_submission(client, cf_problem, source, scoring_mode="pass_fail", submission_language=language)

        ioi_dir = "ioi-total"
        tests = json.loads(read(ioi_dir, "tests.json"))
        grader_files = [(f"graders/{name}", read(ioi_dir, "graders", name)) for name in ("grader.cpp", "total.h", "grader_config.json")]
        grader_files.append(("checker/checker.cpp", read(ioi_dir, "checker", "checker.cpp")))
        subtasks = [dict(s, id="total", score_precision=2, test_cases={t: tuple(tests[t]) for t in s["test_names"]},
                         time_limit=1.0, memory_limit=256, grader_files=grader_files)
                    for s in json.loads(read(ioi_dir, "subtasks.json"))]
        no_checker_subtasks = [dict(s, grader_files=grader_files[:3]) for s in subtasks]

        guess_dir = "ioi-guess"
        guess_tests = json.loads(read(guess_dir, "tests.json"))
        guess_files = [(f"graders/{name}", read(guess_dir, "graders", name))
                       for name in ("stub.cpp", "guess.h", "manager.cpp", "grader_config.json")]
        guess_subtasks = [dict(s, id="guess", score_precision=2, test_cases={t: tuple(guess_tests[t]) for t in s["test_names"]},
                               time_limit=1.0, memory_limit=256, grader_files=guess_files)
                          for s in json.loads(read(guess_dir, "subtasks.json"))]

        async def ioi(solution, tasks=subtasks, skip_mode=True, task_dir=ioi_dir, task_id="total"):
            code = add_includes(read(task_dir, "solutions", solution), task_id)
            results = await score_subtasks(client, tasks, code, skip_mode=skip_mode)
            return {"total": round(sum(r.weighted_score for r in results), 2),
                    "subtasks": [[r.score, r.weighted_score, r.status] for r in results]}

        cases = {
            "cf_correct_cpp": cf("correct.cpp"),
            "cf_correct_python": cf("correct.py", language="python"),
            "cf_wrong_cpp": cf("wrong.cpp"),
            "cf_correct_weighted": cf("correct.cpp", mode="weighted_sum"),
            "cf_wrong_partial_all_batch": cf("wrong.cpp", mode="partial", batch=-1),
            "cf_correct_without_checker": cf("correct.cpp", problem=no_checker),
            "cf_compile_error": cf_source("int main( {"),
            "cf_time_limit": cf_source("int main(){ volatile unsigned long x = 0; for (;;) x++; }"),
            "ioi_correct": ioi("correct.cpp"),
            "ioi_partial": ioi("partial.cpp"),
            "ioi_wrong": ioi("wrong.cpp"),
            "ioi_correct_without_checker": ioi("correct.cpp", tasks=no_checker_subtasks),
            "ioi_partial_without_checker": ioi("partial.cpp", tasks=no_checker_subtasks),
            "ioi_communication_correct": ioi("correct.cpp", tasks=guess_subtasks, task_dir=guess_dir, task_id="guess"),
            "ioi_communication_partial": ioi("partial.cpp", tasks=guess_subtasks, task_dir=guess_dir, task_id="guess"),
            "ioi_communication_wrong": ioi("wrong.cpp", tasks=guess_subtasks, task_dir=guess_dir, task_id="guess"),
        }
        results = []
        for coroutine in cases.values():
            results.append(await coroutine)
        print(json.dumps(dict(zip(cases.keys(), results))))


asyncio.run(main())
