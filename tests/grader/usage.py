"""A grading asked for wrongly, or stopped (issue 31): a mistyped submission, class or lab is
a one-line error with a non-zero exit and no results.json (before, a missing folder scored
0 and LAB=99 wrote a grade of 0 of 0); Ctrl-C ends a class grading and everything it
started (before, its workers ran on until killed by pid).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import CPU_BACKEND, FILE, LAB, ROOT  # noqa: E402

GRADE = os.path.join(ROOT, "common", "grade", "grade.py")


def ours_running(marker):
    """Processes whose command line holds marker (the folder of the grading's trees)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


class Usage(unittest.TestCase):
    def misuse(self, args, said):
        with tempfile.TemporaryDirectory(prefix="test-grader-usage-") as tmp:
            out = os.path.join(tmp, "out")
            p = subprocess.run([sys.executable, GRADE, "--out", out] + args, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=60)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
            self.assertIn(said, p.stderr)
            self.assertFalse(os.path.exists(out), "a grade that did not happen was written")

    def test_no_such_submission(self):
        self.misuse(["--student", "no/such/dir", "--lab", "01"], "STUDENT=no/such/dir")

    def test_no_such_class(self):
        self.misuse(["--class", "no/such/dir"], "CLASS=no/such/dir")

    def test_plan_without_class(self):
        self.misuse(["--plan", "plan.json", "--lab", "01"], "--plan grades a class")

    def test_no_such_lab(self):
        self.misuse(["--lab", "99"], "no lab 99 here: LAB= takes one of 00 01")

    @unittest.skipUnless(CPU_BACKEND, "needs the CPU backend (common/cpu/cpu.mk)")
    def test_ctrl_c_ends_a_class_grading(self):
        with tempfile.TemporaryDirectory(prefix="test-grader-ctrl-c-") as tmp:
            for name in ("a", "b"):
                folder = os.path.join(tmp, "class", name)
                os.makedirs(folder)
                with open(os.path.join(ROOT, "solutions", LAB, FILE), encoding="utf-8") as f, \
                        open(os.path.join(folder, FILE), "w", encoding="utf-8") as g:
                    g.write(f.read())
            out, scratch = os.path.join(tmp, "out"), os.path.join(tmp, "scratch")
            os.makedirs(scratch)
            for folder in (tmp, scratch):  # the test uids pass through to the scratch trees
                os.chmod(folder, 0o755)
            p = subprocess.Popen([sys.executable, GRADE, "--lab", LAB[3:5], "--class",
                                  os.path.join(tmp, "class"), "--out", out], cwd=ROOT,
                                 env=dict(os.environ, TMPDIR=scratch), stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, universal_newlines=True)
            said = ""
            # lab01, the attacks' lab: its shared builds are kept from the tests before
            while "grading 2 at a time" not in said:  # the shared builds are done
                line = p.stdout.readline()
                self.assertTrue(line, said[-2000:])
                said += line
            time.sleep(5)  # the submissions' builds and tests under way
            p.send_signal(signal.SIGINT)
            said += p.communicate(timeout=30)[0]
            self.assertIn("the grading was stopped (SIGTERM or Ctrl-C)", said)
            time.sleep(1)
            self.assertEqual(ours_running(scratch), [], said[-2000:])


if __name__ == "__main__":
    unittest.main()
