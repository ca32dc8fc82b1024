"""Whole gradings of lab01, as `make grade` runs them (test_grader.py gathers them): the
pristine skeletons score 0 kernel points, the solutions full marks, and the broken submissions
(broken.py) lose exactly the tests they touch, within the time limits (per test and per lab),
with a results.json written every time. They need a backend that runs kernels: the CPU backend
(common/cpu/cpu.mk) or BACKEND=cuda on a GPU.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helpers  # noqa: E402  (first: it puts common/grade on the path)
import grade  # noqa: E402  (the module under test)
from broken import FIXTURES  # noqa: E402
from helpers import (ROOT, clean_env, cpu_only_tests, judge_names, read,  # noqa: E402
                     run_grader, work_tests)


def by_name(results):
    return {t["name"]: t for t in results["tests"]}


class GradingBase(unittest.TestCase):
    """Grades one submission of a lab (lab01 unless said) once per class; the tests read its
    results. The race checker's second run only where a class is about it or about full
    marks: it costs a build and a run."""
    args = ()
    lab = "01"
    racecheck = False

    @classmethod
    def setUpClass(cls):
        if not helpers.KERNELS_RUN:
            raise unittest.SkipTest(helpers.SKIP_WHY)
        cls.out = tempfile.mkdtemp(prefix="test-grader-")
        cls.results, cls.stdout, cls.secs = run_grader(
            cls.out, "--lab", cls.lab, *(cls.args + (() if cls.racecheck else ("--no-racecheck",))))
        cls.tests = by_name(cls.results)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def kernel_tests(self):
        """The tests of the student's code: all but those the test files mark as checking
        given code (TESTKIT_HOST, TESTKIT_GIVEN)."""
        given = set()
        labdir = grade.find_labs(ROOT)["01"]
        for hidden in (False, True):
            given |= set(judge_names("lab01", labdir, hidden, helpers.BACKEND, given=True))
        return {n: t for n, t in self.tests.items() if t["max_score"] > 0
                and n.split()[-1].split("/")[-1] not in given}

    def assert_only_these_lose(self, losers, why):
        for name, t in self.tests.items():
            if t["max_score"] == 0:
                continue
            with self.subTest(test=name):
                if name in losers:
                    self.assertEqual(t["score"], 0)
                    self.assertIn(why, t["output"])
                else:
                    self.assertEqual(t["score"], t["max_score"], t["output"])


class Skeletons(GradingBase):
    """The pristine skeletons, graded through `make grade` as an instructor would."""

    @classmethod
    def setUpClass(cls):
        if not helpers.KERNELS_RUN:
            raise unittest.SkipTest(helpers.SKIP_WHY)
        cls.out = tempfile.mkdtemp(prefix="test-grader-")
        start = time.monotonic()
        p = subprocess.run(["make", "--no-print-directory", "grade", "LAB=01",
                            "BACKEND=" + helpers.BACKEND, "GRADE_OUT=" + cls.out]
                           + helpers.MAKE_VARS[1:], cwd=ROOT,
                           env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
        cls.secs, cls.stdout = time.monotonic() - start, p.stdout
        with open(os.path.join(cls.out, "results.json"), encoding="utf-8") as f:
            cls.results = json.load(f)
        cls.tests = by_name(cls.results)

    def test_no_kernel_points(self):
        kernels = self.kernel_tests()
        self.assertGreater(len(kernels), 0)
        for name, t in kernels.items():
            with self.subTest(test=name):
                self.assertEqual(t["score"], 0)
                self.assertEqual(t["status"], "failed")

    def test_table_json_and_junit(self):
        self.assertIn("lab01-vector-add", self.stdout)
        self.assertIn("results.json written", self.stdout)
        suite = ET.parse(os.path.join(self.out, "lab01.xml")).getroot().find("testsuite")
        self.assertEqual(int(suite.get("tests")), len(self.results["tests"]))
        self.assertEqual(self.results["score"], sum(t["score"] for t in self.results["tests"]))


class Solutions(GradingBase):
    args = ("--solution",)
    racecheck = True

    def test_full_marks(self):
        self.assertGreater(self.results["max_score"], 0)
        self.assertEqual(self.results["score"], self.results["max_score"], self.stdout)

    def test_hidden_tests_graded_with_their_visibility(self):
        hidden = {n: t for n, t in self.tests.items() if "hidden/" in n}
        self.assertGreater(len(hidden), 0)
        for t in hidden.values():
            self.assertIn(t["visibility"], ("hidden", "after_due_date"))

    def test_perf_without_a_gpu_is_zero_of_zero(self):
        perf = [t for n, t in self.tests.items() if n.startswith("lab01 perf ")]
        if helpers.BACKEND == "cuda":
            self.skipTest("a GPU measures it")
        self.assertGreater(len(perf), 0)
        for t in perf:
            self.assertEqual((t["score"], t["max_score"], t["visibility"]), (0, 0, "visible"))
            self.assertIn("needs a GPU", t["output"])


class CompileError(GradingBase):
    args = ("--student", os.path.join(FIXTURES, "compile_error"))

    def test_lab_scores_zero_with_the_compilers_message(self):
        self.assertEqual(self.results["score"], 0)
        self.assertGreater(self.results["max_score"], 0)
        self.assertIn("did not compile", self.results["output"])
        self.assertIn("vector_add.cu", self.results["output"])
        self.assertIn("idx", self.results["output"])  # the undeclared name the compiler names
        for t in self.results["tests"]:
            if t["max_score"] > 0:
                self.assertIn("did not compile", t["output"])
        self.assertNotIn("grade-", self.results["output"])  # no scratch paths


class HostCall(GradingBase):
    """Where nvcc is installed, the grader builds the student's file with it too."""
    args = ("--student", os.path.join(FIXTURES, "host_call"), "--tests", "one_block")

    @classmethod
    def setUpClass(cls):
        if helpers.BACKEND != "cpu" or not shutil.which("nvcc"):
            raise unittest.SkipTest("needs the CPU backend and nvcc on the PATH")
        super().setUpClass()

    def test_what_nvcc_refuses_does_not_compile(self):
        self.assertEqual(self.results["score"], 0)
        self.assertIn("did not compile", self.results["output"])
        self.assertIn("calling a __host__ function", self.results["output"])


class Crash(GradingBase):
    args = ("--student", os.path.join(FIXTURES, "crash"), "--test-timeout", "30")

    def test_only_the_crashing_tests_lose(self):
        self.assert_only_these_lose({"lab01 grid_2d", "lab01 grid_stride_float4",
                                     "lab01 hidden/writes_exactly_n.grid_2d",
                                     "lab01 hidden/writes_exactly_n.grid_stride_float4",
                                     "lab01 hidden/float4_tails", "lab01 hidden/grid_2d_many_rows",
                                     "lab01 hidden/past_2_32.grid_2d",
                                     "lab01 hidden/past_2_32.grid_stride_float4",
                                     "lab01 timed_launch", "lab01 hidden/timed_every_variant"}
                                    | work_tests("grid_2d", "grid_stride_float4")
                                    | cpu_only_tests("timed_launch_errors"), "crashed")

    def test_signals_named_with_the_line(self):
        """AddressSanitizer names the bad write's line; an abort is named as a signal."""
        crash = os.path.join(FIXTURES, "crash", "labs", "lab01-vector-add", "vector_add.cu")
        where = "vector_add.cu:%d" % line_of(crash, "*(int *)(size_t)(64 * blocks) = 0;")
        self.assertIn("SEGV", self.tests["lab01 grid_2d"]["output"])
        self.assertIn(where, self.tests["lab01 grid_2d"]["output"].splitlines()[1])
        self.assertIn("SIGABRT", self.tests["lab01 grid_stride_float4"]["output"])


def line_of(path, mark):
    """The line number of the last line of mark in the file at path."""
    text = read(path)
    return text[:text.index(mark) + len(mark)].count("\n") + 1


class Hang(GradingBase):
    args = ("--student", os.path.join(FIXTURES, "hang"), "--test-timeout", "10", "--no-hidden")

    def test_only_the_hanging_tests_lose(self):
        self.assert_only_these_lose({"lab01 one_block"} | work_tests("one_block"),
                                    "time limit of 10 s")

    def test_the_hang_named(self):
        """A hang says so, with the case the test was at and, on the CPU backend, the
        kernel that had not ended."""
        why = self.tests["lab01 one_block"]["output"]
        self.assertIn("a hang", why)
        self.assertIn("it was at one_block, n = ", why)
        if helpers.BACKEND == "cpu":
            self.assertIn("stopped in kernel add_one_block (launched at ", why)

    def test_within_the_limits(self):
        self.assertLess(self.secs, 120 if helpers.BACKEND == "cpu" else 300)


class LabTimeLimit(GradingBase):
    """A hang with a lab budget smaller than the test limit (below the 10 s floor of the limits
    that the solution's measured times give): the hang is stopped when the lab's time runs
    out and the test after it is not started, both reported."""
    args = ("--student", os.path.join(FIXTURES, "hang"), "--tests", "one_block", "grid_2d",
            "--no-hidden", "--jobs", "1", "--test-timeout", "300", "--lab-timeout", "8")

    def test_stopped_and_not_run(self):
        self.assertEqual(set(self.tests), {"lab01 one_block", "lab01 grid_2d"})
        self.assertIn("lab's time limit of 8 s ran out while it ran",
                      self.tests["lab01 one_block"]["output"])
        self.assertIn("not run", self.tests["lab01 grid_2d"]["output"])
        self.assertLess(self.secs, 60 if helpers.BACKEND == "cpu" else 300)


if __name__ == "__main__":
    unittest.main()
