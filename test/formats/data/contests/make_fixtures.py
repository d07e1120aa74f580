"""Builds apps.jsonl, taco.jsonl and code_contests.jsonl: real public contest problems (Codeforces 4A "Watermelon",
1A "Theatre Square"; Codewars "Sum of two lowest positive
integers"), and one made-up float-output problem to exercise the tolerance, in the exact row shapes of codeparrot/apps, BAAI/TACO and deepmind/code_contests (statements abridged,
tests partly the problems' examples, partly written here; ids ours). Run: python3 make_fixtures.py."""
import json

WATERMELON = "w = int(input())\nprint('YES' if w > 2 and w % 2 == 0 else 'NO')\n"
THEATRE_PY = "n, m, a = map(int, input().split())\nprint(((n + a - 1) // a) * ((m + a - 1) // a))\n"
THEATRE_CPP = ("#include <cstdio>\nint main() { long long n, m, a; scanf(\"%lld %lld %lld\", &n, &m, &a);\n"
               "  printf(\"%lld\\n\", ((n + a - 1) / a) * ((m + a - 1) / a)); return 0; }\n")
CIRCLE_PY = "import math\nr = float(input())\nprint('%.6f' % (math.pi * r * r))\n"

apps = [
    {"problem_id": 4000, "question": "Pete and Billy bought a watermelon weighing w kilos. Can it be divided into two "
     "parts, each weighing an even number of kilos (parts need not be equal)? Print YES or NO.",
     "solutions": json.dumps([WATERMELON]), "input_output": json.dumps({"inputs": ["8\n", "5\n", "2\n", ["100"]],
                                                                    "outputs": ["YES\n", "NO\n", "NO\n", ["YES"]]}),
     "difficulty": "introductory", "url": "https://codeforces.com/problemset/problem/4/A", "starter_code": ""},
    {"problem_id": 4001, "question": "Create a function that returns the sum of the two lowest positive numbers given "
     "an array of minimum 4 positive integers.",
     "solutions": json.dumps(["def sum_two_smallest_numbers(numbers):\n    return sum(sorted(numbers)[:2])\n"]),
     "input_output": json.dumps({"fn_name": "sum_two_smallest_numbers",
                                 "inputs": [[[5, 8, 12, 18, 22]], [[7, 15, 12, 18, 22]], [[25, 42, 12, 18, 22]]],
                                 "outputs": [[13], [19], [30]]}),
     "difficulty": "introductory", "url": "https://www.codewars.com/kata/558fc85d8fd1938afb000014",
     "starter_code": "def sum_two_smallest_numbers(numbers):\n\t"},
]

taco = [
    {"question": "Theatre Square in the capital city of Berland has a rectangular shape with the size n x m meters. "
     "It is to be paved with square granite flagstones of size a x a. What is the least number of flagstones needed?",
     "solutions": json.dumps([THEATRE_PY]),
     "starter_code": "", "input_output": json.dumps({"inputs": ["6 6 4\n", "1 1 1\n", "1000000000 1000000000 1\n"],
                                                    "outputs": ["4\n", "1\n", "1000000000000000000\n"]}),
     "difficulty": "EASY", "raw_tags": "['math']", "name": "1_A. Theatre Square", "source": "codeforces",
     "tags": "['Mathematics']", "skill_types": "['Sorting']", "url": "https://codeforces.com/problemset/problem/1/A",
     "Expected Auxiliary Space": None, "time_limit": "1.0 seconds", "date": "2010-01-01", "picture_num": "0",
     "memory_limit": "256.0 megabytes", "Expected Time Complexity": None},
]


def tests(inputs, outputs):
    return {"input": inputs, "output": outputs}


code_contests = [
    {"name": "1_A. Theatre Square", "description": taco[0]["question"],
     "public_tests": tests(["6 6 4\n"], ["4\n"]),
     "private_tests": tests(["1 1 1\n", "2 1 1\n"], ["1\n", "2\n"]),
     "generated_tests": tests(["1000000000 1000000000 1\n", "7 3 2\n"], ["1000000000000000000\n", "8\n"]),
     "source": 2, "difficulty": 7,
     "solutions": {"language": [2, 3], "solution": [THEATRE_CPP, THEATRE_PY]},
     "incorrect_solutions": {"language": [3], "solution": ["n, m, a = map(int, input().split())\nprint(n * m // (a * a))\n"]},
     "cf_contest_id": 1, "cf_index": "A", "cf_points": 0.0, "cf_rating": 1000, "cf_tags": ["math"],
     "is_description_translated": False, "untranslated_description": "",
     "time_limit": {"seconds": 1, "nanos": 0}, "memory_limit_bytes": 256000000, "input_file": "", "output_file": ""},
    {"name": "circle_area. Circle Area", "description": "Print the area of a circle of radius r with an absolute error "
     "of at most 1e-5.",
     "public_tests": tests(["1\n"], ["3.1415926536\n"]), "private_tests": tests(["2.5\n"], ["19.6349540849\n"]),
     "generated_tests": tests([], []), "source": 0, "difficulty": 0,
     "solutions": {"language": [3], "solution": [CIRCLE_PY]},
     "incorrect_solutions": {"language": [], "solution": []},
     "cf_contest_id": 0, "cf_index": "", "cf_points": 0.0, "cf_rating": 0, "cf_tags": [],
     "is_description_translated": False, "untranslated_description": "",
     "time_limit": {"seconds": 2, "nanos": 500000000}, "memory_limit_bytes": 268435456, "input_file": "", "output_file": ""},
]

if __name__ == "__main__":
    for name, rows in (("apps.jsonl", apps), ("taco.jsonl", taco), ("code_contests.jsonl", code_contests)):
        with open(name, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
