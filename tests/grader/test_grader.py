#!/usr/bin/env python3
"""The grader's own tests (`make test-grader`).

Unit tests of its parts run everywhere (parts.py: points files, JUnit reading, submission
layouts, reports, the perf path against the H100 reference TSV, output caps and kill on
timeout, a results.json even when the grader itself fails; parts_groups.py: the group
runner). The grading tests (gradings.py) build and run lab01 for real, as `make grade` does:
the pristine skeletons score 0 kernel points, the solutions full marks, and the broken
submissions made from the solution (broken.py: one that does not compile, one that crashes,
one that hangs) lose exactly the tests they touch, within the time limits (per test and per
lab), with a results.json written every time; a skipped test scores nothing. They need a
backend that runs kernels: the CPU backend (common/cpu/cpu.mk) or BACKEND=cuda on a GPU.
class_dist.py grades a class folder student by student, unpacks `make dist`'s tarball and
builds, tests and grades lab01 in it (the Classroom flow), and runs the Gradescope autograder
as Gradescope does. Attacks (attacks.py, attacks_wall.py) grades submissions that cheat, snoop
and sabotage, as root, against a copy of this tree with canaries; faults.py, faults of the
grading machine; usage.py, gradings asked for wrongly or stopped. This file runs them all,
with the settings (helpers.py) of its command line. The catalogue of realistic wrong and right
submissions of every lab is catch_rate.py's, which `make test-grader` runs after these.
"""
import argparse
import io
import os
import shutil
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ left in common/grade/ or here
import helpers  # noqa: E402  (the settings of this run, and what the tests share)
from broken import FIXTURES, make_fixtures  # noqa: E402
# The tests, gathered here, where unittest.main() finds them.
from attacks import Attacks  # noqa: E402  (cheating submissions)
from attacks_wall import SwapAfterCheck, WallFallback, WallJailed  # noqa: E402  (wall v3)
from class_dist import Class, Dist, Gradescope  # noqa: E402  (class mode, dist, Gradescope)
from faults import HostFaults  # noqa: E402  (a fault of the machine is nobody's grade)
from gradings import (CompileError, Crash, Hang, HostCall, LabTimeLimit,  # noqa: E402
                      Skeletons, Solutions)  # (whole gradings of lab01)
from parts import Parts, PointsFile, SkippedIsNoPass  # noqa: E402  (the grader's parts)
from parts_groups import GroupParts  # noqa: E402  (the group runner's parts)
from usage import Usage  # noqa: E402  (misuse is one line; Ctrl-C ends a grading)

__all__ = ["Attacks", "SwapAfterCheck", "WallFallback", "WallJailed", "Class", "Dist",
           "Gradescope", "HostFaults", "CompileError", "Crash", "Hang", "HostCall",
           "LabTimeLimit", "Skeletons", "Solutions", "Parts", "PointsFile", "SkippedIsNoPass",
           "GroupParts", "Usage"]


class Timed(unittest.TextTestResult):
    """A line a test class as it ends (its tests, its seconds from the line before: its
    setUpClass, where a class grades, included), so a run of a quarter of an hour says where
    it is and where the time went; the slowest tests at the end."""
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.times, self.group, self.group_tests = {}, None, 0
        self.group_start = self.started = time.monotonic()

    def startTest(self, test):
        name = type(test).__name__
        if name != self.group:
            self.end_group()
            self.group, self.group_tests = name, 0
        self.started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        self.times[test.id().split(".", 1)[-1]] = time.monotonic() - self.started
        self.group_tests += 1

    def end_group(self):
        if self.group:
            now = time.monotonic()
            print("test-grader: %-16s %2d tests %5.0f s" % (
                self.group, self.group_tests, now - self.group_start), flush=True)
            self.group_start = now

    def stopTestRun(self):
        self.end_group()
        slowest = sorted(self.times.items(), key=lambda kv: -kv[1])[:3]
        print("test-grader: slowest " + ", ".join("%s %.0f s" % kv for kv in slowest))
        super().stopTestRun()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args, rest = ap.parse_known_args()
    helpers.BACKEND = args.backend
    if helpers.BACKEND == "cuda":
        helpers.MAKE_VARS[:] = ["--make-var", "ARCH=native"]
    helpers.KERNELS_RUN = helpers.BACKEND == "cuda" or os.path.exists(
        os.path.join(helpers.ROOT, "common", "cpu", "cpu.mk"))
    if not helpers.KERNELS_RUN:
        print(helpers.SKIP_WHY + ": the grading tests; the grader's unit tests run")
    start = time.monotonic()
    make_fixtures()
    report = sys.stderr if args.verbose else io.StringIO()  # quiet unless something fails
    try:
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False,
                                verbosity=2 if args.verbose else 1,
                                testRunner=unittest.TextTestRunner(stream=report,
                                                                   resultclass=Timed))
    finally:
        shutil.rmtree(FIXTURES, ignore_errors=True)
    result = program.result
    if not result.wasSuccessful() and not args.verbose:
        print(report.getvalue())
    print("test-grader: %d tests, %s (%.0f s)" % (
        result.testsRun, "all passed" if result.wasSuccessful() else "%d failed" % (
            len(result.failures) + len(result.errors)), time.monotonic() - start))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
