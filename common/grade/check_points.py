"""make check-points: every line of a points file scores a test that exists on one backend or
the other, as the judges that the grader runs list them (`--list`: the names the compiler
saw, #ifdef BACKEND_CUDA and all), and each judge lists what the lab's own test program
lists. A renamed test then fails `make test` instead of losing its points in silence. (The
grader takes a lab's tests from the same lists, so they never depend on the student's code.)

usage: check_points.py BUILD_DIR BACKEND [BUILD]   (where make built the solutions' tests,
test_labNN, and for which backend, cpu or cuda; `make judges` has built both backends'
judges in BUILD/judge-cpu and BUILD/judge-cuda, BUILD by default build/)
"""
import fnmatch
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from points import read_points  # noqa: E402
from sources import find_labs, test_sources  # noqa: E402

BACKENDS = ("cpu", "cuda")


def listed(binary):
    """What a test program or judge lists, or None where it was not built."""
    if not os.path.exists(binary):
        return None
    return subprocess.run([binary, "--list"], stdout=subprocess.PIPE, universal_newlines=True,
                          check=True).stdout.split()


def problems_of(lab, labdir, build, backend, judges):
    def judge(lab, labdir, hidden, backend):
        return os.path.join(judges, "judge-" + backend, "labs", labdir,
                            ("judge_hidden_" if hidden else "judge_") + lab)

    found = []
    for hidden, table in ((False, "tests/points"), (True, "tests/hidden")):
        if not test_sources(ROOT, lab, hidden):
            continue
        lists = {b: listed(judge(lab, labdir, hidden, b)) for b in BACKENDS}
        missing = [os.path.relpath(judge(lab, labdir, hidden, b), ROOT)
                   for b in BACKENDS if lists[b] is None]
        if missing:
            found.append("not built (make judges BACKEND=cpu|cuda): " + ", ".join(missing))
            continue
        names = set(lists["cpu"] + lists["cuda"])
        path = os.path.join(ROOT, table, lab + ".txt")
        points = read_points(path)
        found += ["%s: %s" % (os.path.relpath(path, ROOT), w) for w in points["warnings"]]
        found += ["%s: %s matches no test of %s" % (os.path.relpath(path, ROOT), p, lab)
                  for p in points["tests"] if not any(fnmatch.fnmatchcase(n, p) for n in names)]
        own = None if hidden else listed(os.path.join(build, "solutions", labdir, "test_" + lab))
        if own is not None and own != lists[backend]:
            found.append("test_%s and judge_%s list different tests: only the test %s, only "
                         "the judge %s" % (lab, lab, sorted(set(own) - set(lists[backend])),
                                           sorted(set(lists[backend]) - set(own))))
    return found


def main(argv):
    build = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build", "cpu-asan")
    backend = argv[2] if len(argv) > 2 else "cpu"
    judges = argv[3] if len(argv) > 3 else os.path.join(ROOT, "build")
    labs = find_labs(ROOT)
    found = [p for n, d in sorted(labs.items())
             for p in problems_of("lab" + n, d, build, backend, judges)]
    for p in found:
        print("check-points: " + p)
    if found:
        return 1
    print("check-points: every points line scores a test of the judges (both backends'), and "
          "each judge lists its lab's tests")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
