"""Gradings around the lab's own (test_grader.py gathers them): a class folder graded student
by student (make grade CLASS=dir); `make dist`'s tarball unpacked, lab01 built, tested and
graded in it (the Classroom flow); the Gradescope autograder run as Gradescope runs it.
"""
import base64
import csv
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helpers  # noqa: E402
from broken import FIXTURES  # noqa: E402
from helpers import ROOT, clean_env, copy_runtimes, cpu_only_tests, work_tests  # noqa: E402


class Class(unittest.TestCase):
    """make grade CLASS=dir: a folder per student, the shared build made once; a student's
    file is rebuilt on top of it (the solution gets full marks, not the skeleton's)."""

    def test_class(self):
        if not helpers.KERNELS_RUN:
            self.skipTest(helpers.SKIP_WHY)
        tmp = tempfile.mkdtemp(prefix="test-grader-class-")
        try:
            subs = os.path.join(tmp, "subs")
            for name in ("alice", "bob", "carol"):
                os.makedirs(os.path.join(subs, name))
            shutil.copy(os.path.join(ROOT, "solutions", "lab01-vector-add", "vector_add.cu"),
                        os.path.join(subs, "alice"))
            shutil.copy(os.path.join(FIXTURES, "compile_error", "vector_add.cu"),
                        os.path.join(subs, "bob"))
            out = os.path.join(tmp, "out")
            p = subprocess.run(["make", "--no-print-directory", "grade", "CLASS=" + subs,
                                "LAB=01", "GRADE_OUT=" + out, "BACKEND=" + helpers.BACKEND]
                               + helpers.MAKE_VARS[1:], cwd=ROOT, env=clean_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            with open(os.path.join(out, "class.csv"), encoding="utf-8") as f:
                rows = {r[0]: r for r in csv.reader(f)}
            self.assertEqual(rows["student"], ["student", "lab01", "score", "max_score"])
            self.assertEqual(rows["alice"][2], rows["alice"][3], p.stdout)
            self.assertEqual(rows["bob"][2], "0")
            self.assertEqual(rows["carol"][2], "0")
            for name in ("alice", "bob", "carol"):
                self.assertTrue(os.path.exists(os.path.join(out, name, "results.json")))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class Dist(unittest.TestCase):
    """make dist: the student tarball holds no solutions, hidden tests, grader fixtures or
    outputs, and lab01's tests build and run in it; the Gradescope zip has its scripts at
    the top and the hidden tests, but no solutions."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test-grader-dist-")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "common", "grade", "dist.py"),
                            "--out", cls.tmp], cwd=ROOT, env=clean_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=300)
        if p.returncode != 0:
            raise AssertionError("dist.py failed:\n" + p.stdout)
        cls.tarball = os.path.join(cls.tmp, "cuda-labs-student.tar.gz")
        cls.zipfile = os.path.join(cls.tmp, "gradescope-autograder.zip")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def unpack(self, name):
        """The student tarball unpacked into tmp/name: the folder at its top."""
        where = os.path.join(self.tmp, name)
        with tarfile.open(self.tarball) as t:
            t.extractall(where)
        return os.path.join(where, os.listdir(where)[0])

    def test_tarball_leaves_out_what_students_must_not_have(self):
        with tarfile.open(self.tarball) as t:
            names = [n.split("/", 1)[1] for n in t.getnames() if "/" in n]
        for banned in ("solutions/", "tests/hidden/", "tests/grader/", "grade/", "build/",
                       "dist/", ".git/", "common/grade/gradescope/"):
            self.assertFalse([n for n in names if n.startswith(banned)], banned)
        for wanted in ("Makefile", "common/grade/grade.py", "tests/points/lab01.txt",
                       ".github/workflows/classroom.yml", "labs/lab01-vector-add/vector_add.cu"):
            self.assertIn(wanted, names)

    def test_gradescope_zip(self):
        with zipfile.ZipFile(self.zipfile) as z:
            names = z.namelist()
            self.assertIn("setup.sh", names)
            self.assertIn("run_autograder", names)
            self.assertIn("tests/hidden/test_lab01_hidden.c", names)
            self.assertIn("common/grade/exercises.txt", names)
            self.assertFalse([n for n in names if n.startswith("solutions/")])
            mode = z.getinfo("run_autograder").external_attr >> 16
            self.assertTrue(mode & 0o111, "run_autograder must be executable")

    def test_student_copy_builds_and_runs_lab01(self):
        if not helpers.KERNELS_RUN:
            self.skipTest(helpers.SKIP_WHY)
        top = self.unpack("unpacked")
        p = subprocess.run(["make", "--no-print-directory", "lab01", "test",
                            "BACKEND=" + helpers.BACKEND] + helpers.MAKE_VARS[1:],
                           cwd=top, env=clean_env(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, timeout=300)
        failed = 7 + len(cpu_only_tests("timed_launch_errors")) + len(work_tests(
            "one_block", "thread_per_element", "grid_stride", "grid_2d", "grid_stride_float4"))
        self.assertIn("lab01: 1 passed, %d failed" % failed, p.stdout)  # ran the skeleton
        self.assertNotIn("warning", p.stdout)  # its open TODOs warn of nothing
        with open(os.path.join(top, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn("lab01-vector-add", readme)  # the student's README, with the labs
        self.assertNotIn("solutions/", readme)

    def test_student_copy_grades_itself_for_classroom(self):
        """What the Classroom workflow runs: make grade in the student's repository, then
        the reporter's payload; no hidden test can be there."""
        if not helpers.KERNELS_RUN:
            self.skipTest(helpers.SKIP_WHY)
        top = self.unpack("classroom")
        copy_runtimes(top)  # the student copy's test above builds them from the tarball
        subprocess.run(["make", "--no-print-directory", "grade", "LAB=01",
                        "BACKEND=" + helpers.BACKEND] + helpers.MAKE_VARS[1:],
                       cwd=top, env=clean_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=300)
        p = subprocess.run([sys.executable, "common/grade/grade.py", "--classroom",
                            "grade/results.json"], cwd=top, stdout=subprocess.PIPE, check=True)
        payload = json.loads(base64.b64decode(p.stdout))
        names = [t["name"] for t in payload["tests"]]
        self.assertIn("lab01 one_block", names)
        self.assertFalse([n for n in names if "hidden/" in n])
        self.assertEqual(payload["status"], "fail")
        self.assertGreater(payload["max_score"], 0)


class Gradescope(unittest.TestCase):
    """The autograder zip of `make dist LAB=01` run as Gradescope runs it (setup.sh's builds
    standing in as this tree's runtimes, copied: setup.sh needs apt), on a loose
    solution file uploaded by a student: full marks, hidden tests included, from the
    zip's list of exercise files (it carries no solutions/), into results/results.json."""

    def test_run_autograder(self):
        if not helpers.KERNELS_RUN:
            self.skipTest(helpers.SKIP_WHY)
        ag = tempfile.mkdtemp(prefix="test-grader-gradescope-")
        try:
            subprocess.run([sys.executable, os.path.join(ROOT, "common", "grade", "dist.py"),
                            "--out", ag, "--lab", "01"], cwd=ROOT, env=clean_env(), check=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            with zipfile.ZipFile(os.path.join(ag, "gradescope-autograder-lab01.zip")) as z:
                for info in z.infolist():  # as unzip does it: with the files' modes
                    path = z.extract(info, os.path.join(ag, "source"))
                    os.chmod(path, info.external_attr >> 16 & 0o777)
            copy_runtimes(os.path.join(ag, "source"))  # what setup.sh builds in the image
            os.makedirs(os.path.join(ag, "submission"))
            shutil.copy(os.path.join(ROOT, "solutions", "lab01-vector-add", "vector_add.cu"),
                        os.path.join(ag, "submission"))
            env = clean_env()
            env.update(AUTOGRADER=ag)
            p = subprocess.run([os.path.join(ag, "source", "run_autograder")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            with open(os.path.join(ag, "results", "results.json"), encoding="utf-8") as f:
                results = json.load(f)
            self.assertEqual(results["score"], results["max_score"], p.stdout)
            self.assertTrue([t for t in results["tests"] if "hidden/" in t["name"]])
            self.assertEqual({t["name"].split()[0] for t in results["tests"]}, {"lab01"})
        finally:
            shutil.rmtree(ag, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
