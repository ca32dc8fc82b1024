"""Each test's time limit from what the solution takes: FACTOR times its time, at least
FLOOR seconds, at most --test-timeout. A hang then costs seconds, not the two minutes that
one limit for every test must allow the slowest.

The times are measured by grading the solutions (`make grade SOLUTION=1`), which records
every test's time per build in build/grade-times.json, keyed by this machine (its CPU, its
cores, its GPU) and by the lab's sources (tests and solution): a change to either measures
again. common/grade/times.json holds times measured on a 2-core machine like CI's (`make
grade-times` writes it; `make dist` adds the instructor's own) for graders that have not
timed the solutions themselves (CI, Gradescope, a Classroom runner); measured elsewhere,
they count twice. A class timed the solutions first where it can (grade.py). Without any,
a test's limit is --test-timeout.
"""
import hashlib
import json
import os
import platform

FACTOR = 5.0   # the solution's time times this
FLOOR = 10.0   # seconds, at least: a loaded machine, a cold cache
ELSEWHERE = 2.0  # times measured on another machine count this many times more
CACHE = os.path.join("build", "grade-times.json")
SHIPPED = os.path.join("common", "grade", "times.json")


def machine(devices):
    """This machine as the cache knows it: CPU model, cores, and the GPU's name."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            model = next((line.split(":", 1)[1].strip() for line in f
                          if line.startswith("model name")), model)
    except OSError:
        pass
    gpu = (devices.get("cuda") or "").split()[-3:]
    return ("%s x%d %s" % (model, os.cpu_count() or 1, " ".join(gpu))).strip()


def to_ship(root):
    """This machine's CPU-backend times of the solutions (the grade of `make grade SOLUTION=1`
    here), as common/grade/times.json for the graders that have no solutions; None if it has
    none."""
    try:
        with open(os.path.join(root, CACHE), encoding="utf-8") as f:
            mine = json.load(f).get(machine({}))
    except (OSError, ValueError):
        return None
    return json.dumps(mine, indent=1, sort_keys=True).encode() if mine else None


def lab_sources(root, lab, labdir):
    """A hash of what a lab's test times depend on: its tests (its solution, which a grader
    without solutions cannot hash, is fixed with the tests it passes)."""
    h = hashlib.sha256()
    paths = []
    for folder in (os.path.join(root, "tests"), os.path.join(root, "tests", "hidden")):
        if os.path.isdir(folder):
            paths += sorted(os.path.join(folder, f) for f in os.listdir(folder)
                            if f.startswith(("test_%s_" % lab, "remote_%s_" % lab)))
    for path in paths:
        if os.path.isfile(path):
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:16]


class Times:
    """The solution's times: read from the cache (this machine's) or the shipped file, and,
    when grading the solutions, recorded."""

    def __init__(self, args, devices, labs):
        self.args, self.labs = args, labs
        self.key = machine(devices)
        self.cache = self.read(os.path.join(args.root, CACHE))
        self.shipped = self.read(os.path.join(args.root, SHIPPED))
        self.new = {}

    @staticmethod
    def read(path):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def known(self, lab, run):
        """({test: seconds}, how many times they count) for a lab's run (suite-kind)."""
        labdir = self.labs.get(lab[3:], "")
        want = lab_sources(self.args.root, lab, labdir) if labdir else ""
        for table, weight in ((self.cache.get(self.key, {}), 1.0),
                              (self.shipped, ELSEWHERE)):
            entry = table.get(lab, {})
            if entry.get("sources") in (want, None) and run in entry.get("runs", {}):
                return entry["runs"][run], weight
        return {}, 1.0

    def unknown(self):
        """The labs of this grading whose solution times this machine has not measured (for
        their tests as they are now)."""
        mine = self.cache.get(self.key, {})
        return [n for n, d in sorted(self.labs.items())
                if mine.get("lab" + n, {}).get("sources") !=
                lab_sources(self.args.root, "lab" + n, d)]

    def limit_of(self, lab, run):
        """The function that gives a test of that run its time limit."""
        known, weight = self.known(lab, run)
        cap = self.args.test_timeout

        def limit(name):
            if name not in known:
                return cap
            return min(cap, max(FLOOR, FACTOR * weight * known[name]))
        return limit

    def record(self, lab, run, results):
        """The solution's times of a run's tests, to save."""
        entry = self.new.setdefault(lab, {"runs": {}})
        entry["runs"][run] = {name: round(r["secs"], 3) for name, r in results.items()
                              if r.get("status") == "passed"}

    def save(self):
        """Merges what was recorded into the cache (when grading the solutions)."""
        if not self.new:
            return
        path = os.path.join(self.args.root, CACHE)
        mine = self.cache.setdefault(self.key, {})
        for lab, entry in self.new.items():
            entry["sources"] = lab_sources(self.args.root, lab, self.labs.get(lab[3:], ""))
            mine[lab] = entry
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".new", "w", encoding="utf-8") as f:
            json.dump(self.cache, f, indent=1, sort_keys=True)
        os.replace(path + ".new", path)


def merged(root):
    """common/grade/times.json as it is, with this machine's times of the solutions over it
    (the labs it timed); None if neither has any."""
    kept = Times.read(os.path.join(root, SHIPPED))
    mine = to_ship(root)
    kept.update(json.loads(mine) if mine else {})
    return (json.dumps(kept, indent=1, sort_keys=True) + "\n").encode() if kept else None


def main():
    """--write: common/grade/times.json with this machine's times of the solutions (make
    grade-times)."""
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if sys.argv[1:] != ["--write"] or not to_ship(root):
        print("times.py --write: no times of the solutions here (make grade-times makes them)")
        return 1
    text = merged(root)  # before the open, which empties the file that it merges
    with open(os.path.join(root, SHIPPED), "wb") as f:
        f.write(text)
    print("%s: the solutions' times of %s" % (SHIPPED, " ".join(sorted(
        Times.read(os.path.join(root, SHIPPED))))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

