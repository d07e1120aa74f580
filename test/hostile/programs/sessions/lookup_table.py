# A `program` session policy's submission: answer each test from a lookup table that the policy grew from the
# feedback of earlier submits (TABLE is set by the test, one entry per test whose expected output feedback
# showed). An unknown input gets a guess. Before issue #23, feedback named the failing hidden test's input and
# expected output, so the table grew by one test per submit and reached reward 1.
import sys

data = sys.stdin.read()
print(TABLE.get(data.strip(), "0"))
