"""Faults of the grading machine are nobody's grade (issue 37): a package missing, or a race
checker that does not report its canary, stops the grading before any student code runs,
with a results.json that says why and holds no score, and a non-zero exit. Before, a
machine without Boost.Context gave even the solution 0 ("did not compile"), and a race
checker that saw nothing passed races silently.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import CPU_BACKEND, copy_tree, read, write  # noqa: E402


def grade(root, out, env=None):
    p = subprocess.run([sys.executable, os.path.join(root, "common", "grade", "grade.py"),
                        "--solution", "--lab", "01", "--out", out, "--no-hidden"],
                       cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=900)
    with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
        return p.returncode, json.load(f), p.stdout


class HostFaults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not CPU_BACKEND:
            raise unittest.SkipTest("needs the CPU backend (common/cpu/cpu.mk)")
        cls.tmp = tempfile.mkdtemp(prefix="test-grader-faults-")
        cls.root = os.path.join(cls.tmp, "root")
        copy_tree(cls.root)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def assert_no_score(self, rc, results, stdout, why):
        self.assertNotEqual(rc, 0, stdout[-2000:])
        self.assertNotIn("score", results)
        self.assertEqual(results["tests"], [])
        self.assertIn("fault of the grading machine", results["output"])
        self.assertIn(why, results["output"])

    def test_a_package_missing(self):
        """g++ that cannot find Boost.Context, as on a machine without libboost-context-dev."""
        bin_dir = os.path.join(self.tmp, "bin")
        write(os.path.join(bin_dir, "g++"), "#!/bin/sh\necho 'fatal error: "
              "boost/context/fiber.hpp: No such file or directory' >&2\nexit 1\n")
        os.chmod(os.path.join(bin_dir, "g++"), stat.S_IRWXU)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        env.pop("MAKEFLAGS", None)
        rc, results, stdout = grade(self.root, os.path.join(self.tmp, "out-package"), env)
        self.assert_no_score(rc, results, stdout, "boost-context")

    def grade_with_canary(self, race, fixed, out):
        """A grading whose canary has the race `race` replaced by `fixed`."""
        canary = os.path.join(self.root, "common", "judge", "race_canary.cu")
        text = read(canary)
        write(canary, text.replace(race, fixed))
        try:
            env = {k: v for k, v in os.environ.items() if k != "MAKEFLAGS"}
            return grade(self.root, os.path.join(self.tmp, out), env)
        finally:
            write(canary, text)

    def test_a_race_checker_that_sees_nothing(self):
        """The canary's race taken away (an atomic): the checker, blind or not, reports none."""
        rc, results, stdout = self.grade_with_canary("*total += 1;", "atomicAdd(total, 1);",
                                                     "out-race")
        self.assert_no_score(rc, results, stdout, "the race checker does not work")

    def test_a_race_checker_that_confuses_threads(self):
        """The canary's race between blocks of 1024 threads taken away (the writer's fence):
        as a ThreadSanitizer that keeps 256 threads apart misses it, the grading stops."""
        rc, results, stdout = self.grade_with_canary("/* the write of the race */",
                                                     "__threadfence();", "out-race-v3")
        self.assert_no_score(rc, results, stdout, "race_canary_unfenced_handoff")


if __name__ == "__main__":
    unittest.main()
