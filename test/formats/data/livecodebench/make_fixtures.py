"""Builds code_generation_lite.jsonl: three real public LiveCodeBench problems in the exact published row shape of
`livecodebench/code_generation_lite` (statements abridged; public tests are the problems' own examples, private
tests written here), with `private_test_cases` encoded as LiveCodeBench publishes it: base64(zlib(pickle(json))).
Python's own pickle makes the payloads (protocols 4 and 5); Crucible decodes them without an unpickler
(src/formats/pickled-str.ts). Run: python3 make_fixtures.py (deterministic output)."""
import base64
import json
import pickle
import zlib


def encode_private(tests, protocol):
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests), protocol=protocol))).decode("utf-8")


def row(question_id, title, content, platform, contest_id, date, starter, difficulty, public, private, metadata, protocol):
    return {
        "question_title": title, "question_content": content, "platform": platform, "question_id": question_id,
        "contest_id": contest_id, "contest_date": date, "starter_code": starter, "difficulty": difficulty,
        "public_test_cases": json.dumps(public), "private_test_cases": encode_private(private, protocol),
        "metadata": json.dumps(metadata),
    }


def functional(inp, out):
    return {"input": inp, "output": out, "testtype": "functional"}


def stdin(inp, out):
    return {"input": inp, "output": out, "testtype": "stdin"}


ROWS = [
    row("2812", "find-the-maximum-achievable-number",
        "You are given two integers, num and t. An integer x is called achievable if it can become equal to num after "
        "applying the following operation no more than t times: increase or decrease x by 1, and simultaneously "
        "increase or decrease num by 1. Return the maximum possible achievable number.",
        "leetcode", "weekly-contest-353", "2023-07-09T00:00:00",
        "class Solution:\n    def theMaximumAchievableX(self, num: int, t: int) -> int:\n        ", "easy",
        [functional("4\n1", "6"), functional("3\n2", "7")],
        [functional("1\n1", "3"), functional("50\n50", "150"), functional("17\n9", "35")],
        {"func_name": "theMaximumAchievableX"}, 4),
    row("2777", "find-the-distinct-difference-array",
        "You are given a 0-indexed array nums of length n. The distinct difference array of nums is an array diff of "
        "length n such that diff[i] is equal to the number of distinct elements in the suffix nums[i + 1, ..., n - 1] "
        "subtracted from the number of distinct elements in the prefix nums[0, ..., i]. Return the distinct "
        "difference array of nums.",
        "leetcode", "weekly-contest-344", "2023-05-07T00:00:00",
        "class Solution:\n    def distinctDifferenceArray(self, nums: List[int]) -> List[int]:\n        ", "easy",
        [functional("[1, 2, 3, 4, 5]", "[-3, -1, 1, 3, 5]"), functional("[3, 2, 3, 4, 2]", "[-2, -1, 0, 2, 3]")],
        [functional("[1]", "[1]"), functional("[5, 5, 5]", "[0, 0, 1]")],
        {"func_name": "distinctDifferenceArray"}, 5),
    row("abc308_a", "New Scheme",
        "Given eight integers S_1,S_2,...,S_8, print Yes if they satisfy all of the following three conditions, and "
        "No otherwise: the sequence is monotonically non-decreasing; each S_i is between 100 and 675, inclusive; "
        "each S_i is a multiple of 25.",
        "atcoder", "abc308", "2023-07-01T00:00:00", "", "easy",
        [stdin("125 175 250 300 400 525 600 650\n", "Yes\n"), stdin("100 250 300 400 325 575 625 675\n", "No\n"),
         stdin("0 23 24 145 301 413 631 632\n", "No\n")],
        [stdin("100 100 100 100 100 100 100 100\n", "Yes\n"), stdin("675 675 675 675 675 675 675 700\n", "No\n")],
        {}, 4),
]

if __name__ == "__main__":
    with open("code_generation_lite.jsonl", "w", encoding="utf-8") as f:
        for r in ROWS:
            f.write(json.dumps(r) + "\n")
