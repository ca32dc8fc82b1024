"""The group runner's parts (common/grade/groups.py), without running a test: how the
judge's progress lines are read, and how a pair's output is split by test. The grading
tests (gradings.py: Crash, Hang, LabTimeLimit) run real groups."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "common", "grade"))
import groups  # noqa: E402
from run import TESTKIT_MARK  # noqa: E402


class GroupParts(unittest.TestCase):
    def test_progress(self):
        seen, order = groups.read_progress(
            "start a 1.5\npassed a 2.0\nstart b 2.0\ngarbage\nstart c x\nstart c 3.25\n")
        self.assertEqual(order, ["a", "b", "c"])
        self.assertEqual(seen["a"], {"start": 1.5, "passed": 2.0})
        self.assertEqual(seen["b"], {"start": 2.0})
        self.assertEqual(seen["c"], {"start": 3.25})

    def test_outputs_split_at_the_marks(self):
        text = ("random seed 7\n%sa\ncase: a, n = 1\n%sb\nERROR: b failed\nmore\n" %
                (TESTKIT_MARK, TESTKIT_MARK))
        parts, before = groups.split_marked(text)
        self.assertEqual(before, "random seed 7")
        self.assertEqual(parts, {"a": "case: a, n = 1", "b": "ERROR: b failed\nmore"})

    def test_the_mark_is_the_judges(self):
        """remote.h's TESTKIT_MARK and run.py's are one string."""
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        with open(os.path.join(root, "common", "judge", "remote.h"), encoding="utf-8") as f:
            self.assertIn('#define TESTKIT_MARK "%s"' % TESTKIT_MARK, f.read())


if __name__ == "__main__":
    unittest.main()
