"""make check-points: every line of a points file scores a test that exists, and the grader's
list of a lab's tests (read from the test sources, so that a lab's maximum is the same when a
student's code does not build) is the list its built tests print (`--list`). A renamed test
then fails `make test` instead of losing its points in silence.

usage: check_points.py BUILD_DIR BACKEND   (where make built the solutions' tests, test_labNN,
and for which backend: cpu or cuda)
"""
import fnmatch
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from points import read_points  # noqa: E402
from sources import find_labs, names_in_sources, test_sources  # noqa: E402


def problems_of(lab, labdir, build, backend):
    found = []
    for hidden, table in ((False, "tests/points"), (True, "tests/hidden")):
        sources = test_sources(ROOT, lab, hidden)
        names = set(names_in_sources(sources, "cpu") + names_in_sources(sources, "cuda"))
        path = os.path.join(ROOT, table, lab + ".txt")
        points = read_points(path)
        found += ["%s: %s" % (os.path.relpath(path, ROOT), w) for w in points["warnings"]]
        found += ["%s: %s matches no test of %s" % (os.path.relpath(path, ROOT), p, lab)
                  for p in points["tests"] if not any(fnmatch.fnmatchcase(n, p) for n in names)]
    binary = os.path.join(build, "solutions", labdir, "test_" + lab)
    if os.path.exists(binary):
        listed = subprocess.run([binary, "--list"], stdout=subprocess.PIPE,
                                universal_newlines=True, check=True).stdout.split()
        parsed = names_in_sources(test_sources(ROOT, lab), backend)
        if listed != parsed:
            found.append("%s --list and the grader's reading of its sources differ: only "
                         "listed %s, only read %s" % (os.path.relpath(binary, ROOT),
                                                       sorted(set(listed) - set(parsed)),
                                                       sorted(set(parsed) - set(listed))))
    return found


def main(argv):
    build = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build", "cpu-asan")
    backend = argv[2] if len(argv) > 2 else "cpu"
    labs = find_labs(ROOT)
    found = [p for n, d in sorted(labs.items()) for p in problems_of("lab" + n, d, build, backend)]
    for p in found:
        print("check-points: " + p)
    if found:
        return 1
    print("check-points: every points line scores a test; the grader's lists are the tests'")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
