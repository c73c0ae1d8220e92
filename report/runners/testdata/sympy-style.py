"""Prints a run laid out as sympy's bin/test reporter lays one out
(sympy/testing/runtests.py, PyTestReporter): a centred banner, the
environment, one progress line per file ending [OK] or [FAIL], the
tracebacks of exceptions and then of failures under centred headings,
the total centred in '=' (wrapped after a comma when wider than the
terminal), and DO *NOT* COMMIT! when anything failed. The tests and
their output are made up; only the layout is bin/test's."""
import sys

WIDTH = 80


def center(text, delim="="):
    if text:
        text = " %s " % text
    idx = (WIDTH - len(text)) // 2
    return delim * max(idx, 0) + text + delim * max(WIDTH - idx - len(text), 0)


def total(items, seconds):
    text, n = "tests finished: ", len("tests finished: ")
    for item in items + ["in %.2f seconds" % seconds]:
        if n + len(item) > WIDTH:
            text, n = text + "\n", 0
        text, n = text + item, n + len(item)
    return center(text)


w = sys.stdout.write
w(center("test process starts") + "\n")
w("executable:         /usr/bin/python3  (3.11.7-final-0) [CPython]\n")
w("architecture:       64-bit\ncache:              yes\nground types:       python \n")
w("random seed:        4711\nhash randomization: on (PYTHONHASHSEED=12345)\n\n")
w("sympy/geometry/tests/test_circle.py[6] ......".ljust(WIDTH - 4) + "[OK]\n")
w("sympy/geometry/tests/test_polygon.py[9] ..E..F..f".ljust(WIDTH - 6) + "[FAIL]\n\n")
blocks = [
    ("sympy/geometry/tests/test_polygon.py:test_area",
     ["Traceback (most recent call last):",
      '  File "/work/sympy/geometry/tests/test_polygon.py", line 41, in test_area',
      "    assert Polygon(*pts).area == 12",
      '  File "/work/sympy/geometry/polygon.py", line 188, in area',
      "    raise GeometryError(\"polygon is not simple\")",
      "sympy.geometry.exceptions.GeometryError: polygon is not simple"]),
    ("sympy/geometry/tests/test_polygon.py:test_perimeter",
     ['  File "/work/sympy/geometry/tests/test_polygon.py", line 57, in test_perimeter',
      "    assert Triangle(a, b, c).perimeter == 3 + sqrt(5)",
      "AssertionError"]),
]
for name, lines in blocks:
    w(center("", "_") + "\n" + center(name, "_") + "\n")
    for line in lines:
        w(line + "\n")
w("\n")
w(total(["13 passed, ", "1 failed, ", "1 expected to fail, ", "1 exceptions, "], 0.42) + "\n")
w("DO *NOT* COMMIT!\n")
# A second, wider run: its total wraps after a comma.
w(center("test process starts") + "\n\n")
w("sympy/geometry/tests/test_polygon.py[9] ........f".ljust(WIDTH - 4) + "[OK]\n\n")
w(total(["8 passed, ", "3 skipped, ", "1 expected to fail, ", "2 expected to fail, but passed, "], 0.37) + "\n")
