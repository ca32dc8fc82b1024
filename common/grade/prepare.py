"""What a grading prepares before any student code runs, from our tree alone: the secrets
closed, the CPU backend's runtimes, the judges, the device as the grader sees it, the race
checker proved on a canary, and each submission staged into the grader's own folder.

A fault found here is the grading host's (a package missing, a race checker that does not
see races, no GPU for BACKEND=cuda): GraderFault, which stops the grading with no score
written for anyone, rather than charging students with it.
"""
import os
import shutil
import subprocess

import wall
from base import cached, files_under, key
from report import clip
from run import (backends, bench_judge_path, build_dir, compiler_message, judge_path, make,
                 no_aslr, racechecked)
from sources import (exercise_names, find_in_submission, find_labs, judge_tree, plain_env,
                     stage_submission, test_sources)


# What of our tree the judges are not built from (sources.judge_tree leaves it out)
JUDGE_SKIP = {".git", "solutions", "grade", "dist", "build", os.path.join("tests", "grader")}


class GraderFault(Exception):
    """A fault of the grading host or of the grader: nobody's grade."""


def close_secrets(args):
    """Root grading: our tree (solutions, hidden tests, points, history, a `make dist`
    zip), the class folder (the other students' code) and the grade's output (results of
    the students graded before) must be closed to the student's uids, all of it, not a
    folder at a time. Returns what it closed (mode 700), for a line in the output."""
    closed = []
    for path in (args.root, args.class_dir, args.out):
        if not path:
            continue
        os.makedirs(path, mode=0o700, exist_ok=True)
        if not os.path.islink(path) and os.stat(path).st_mode & 0o077:
            os.chmod(path, 0o700)
            closed.append(path)
    return closed


def ensure_runtimes(args):
    """Builds the CPU backend's runtimes in our tree (as the grader's user: our code only),
    which the judges' and the students' trees then copy, so that neither rebuilds them."""
    if "cpu" not in backends(args):
        return
    flavours = [["SANITIZE=%d" % ("SANITIZE=0" not in args.make_var)]]
    if racechecked(args):
        flavours.append(["RACECHECK=1"])
    for extra in flavours:
        p = subprocess.run(["make", "--no-print-directory", "-s", "-j%d" % args.jobs, "BACKEND=cpu",
                            "cpu-runtime"] + extra, cwd=args.root, env=plain_env(args.root),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if p.returncode != 0:
            raise GraderFault("the CPU backend's runtime does not build on this machine (a "
                              "package missing?), so nothing was graded and no submission is "
                              "charged with it:\n" + compiler_message(p.stdout))


def chosen_labs(args, notes):
    labs = find_labs(args.root)
    unknown = [n for n in args.labs if n not in labs]
    if unknown:
        notes.append("no lab with tests numbered %s (labs: %s)" % (
            ", ".join(unknown), " ".join(labs)))
    return {n: d for n, d in labs.items() if not args.labs or n in args.labs}


def prepare_judges(args, labs, where):
    """Builds every chosen lab's judges (the tests without any student code) for each
    backend the grading runs (run.backends), in a private copy of our tree under where, from
    our files alone, with the grader's own view of each device (device_query) and, where
    races are checked, the race checker's canary; hands them to the judge uid, then asks the
    devices and runs the canary as that uid. Returns (the judges' tree, {backend: the
    device's line for TESTKIT_GPU_INFO})."""
    queries = {b: os.path.join(build_dir(args, "", tree="common", backend=b), "judge",
                               "device_query") for b in backends(args)}
    canary = os.path.join(build_dir(args, "", race=True, tree="common"), "judge", "race_canary")

    def build(folder):
        tree = judge_tree(args.root, folder)
        for backend, query in queries.items():
            targets = [judge_path(args, d, "lab" + n, hidden, backend)
                       for n, d in labs.items() for hidden in (False, True)
                       if test_sources(tree, "lab" + n, hidden)]
            if backend == "cuda" and args.perf:
                targets += [bench_judge_path(args, d, "lab" + n) for n, d in labs.items()]
            ok, log = make(args, tree, targets + [query],
                           os.path.join(folder, "build-judges-%s.txt" % backend), backend=backend)
            if not ok:
                raise GraderFault("the grader could not build its own programs on this machine "
                                  "(a package missing?), so nothing was graded and no submission "
                                  "is charged with it:\n" + compiler_message(log))
        if racechecked(args):
            ok, log = make(args, tree, [canary], os.path.join(folder, "build-canary.txt"),
                           race=True)
            if not ok:
                raise GraderFault("the race checker's canary does not build on this machine, so "
                                  "nothing was graded:\n" + compiler_message(log))
        return True
    made = cached(args, "judges", key(args, labs, files_under(args.root, ["."], JUDGE_SKIP),
                                      args.perf, racechecked(args)), build, where)
    tree = os.path.join(where, "tree")
    shutil.copytree(os.path.join(made, "tree"), tree, symlinks=True)
    devices = {b: os.path.join(tree, q) for b, q in queries.items()}
    wall.own_tree(where, wall.judge_id(), wall.judge_id())
    wall.own(where, wall.judge_id(), wall.judge_id(), 0o700)
    names = list_tests(args, labs, tree, where)
    for backend, query in devices.items():
        devices[backend] = host_program(args, where, [query], "device-" + backend, backend)
    if args.backend == "cuda" and not devices["cuda"]:
        raise GraderFault("BACKEND=cuda, but no CUDA device answers on this machine: grade "
                          "with BACKEND=cpu, or on a machine with a GPU")
    if racechecked(args):
        check_canary(args, where, os.path.join(tree, canary))
    return tree, devices, names


def list_tests(args, labs, tree, where):
    """The tests each judge runs, as it lists them itself (`--list`: no worker needed), so
    that a lab's tests are those the compiler saw, whatever the student's code does:
    {(lab, hidden, backend): [name, ...]}."""
    names = {}
    for backend in backends(args):
        for num, labdir in labs.items():
            for hidden in (False, True):
                judge = os.path.join(tree, judge_path(args, labdir, "lab" + num, hidden, backend))
                if not os.path.exists(judge):
                    continue
                tag = "list-%s-lab%s%s" % (backend, num, "-hidden" if hidden else "")
                listed = host_program(args, where, [judge, "--list"], tag, backend, whole=True,
                                      ok_only=True)
                if not listed.split():
                    raise GraderFault("the grader's judge %s lists no tests, so nothing was "
                                      "graded" % os.path.relpath(judge, tree))
                names[("lab" + num, hidden, backend)] = listed.split()
    return names


def check_canary(args, where, canary):
    """Runs each race of the canary (common/judge/race_canary.cu) and stops the grading with
    a GraderFault unless the race checker reports it: a checker blind to it would pass races."""
    for case in ("lost_update", "unfenced_handoff"):
        said = host_program(args, where, no_aslr(True) + [canary, case], "canary-" + case,
                            "cpu", whole=True)
        if "race in kernel race_canary_" + case not in said:
            raise GraderFault("the race checker does not work on this machine: its canary, a "
                              "known race (race_canary_%s in common/judge/race_canary.cu), was "
                              "not reported, so races would pass unseen; nothing was graded. It "
                              "needs gcc 12's ThreadSanitizer or an older one, with fibers "
                              "(common/cpu/tsan-gcc). It said:\n%s" % (case, clip(said, 1500)))


def host_program(args, where, cmd, tag, backend, whole=False, ok_only=False):
    """Runs one of the grader's own programs as the judge uid, with the worker's environment
    on backend (so that the CPU backend's virtual device is the worker's), and returns its
    output: all of it with whole (unless ok_only and it failed), else its first line, or ""
    when it failed."""
    log = os.path.join(where, tag + ".txt")
    env = plain_env(where, {"CUDA_CPU_STRICT": "1"} if backend == "cpu" else {})
    who = (wall.judge_id(), wall.judge_id()) if wall.ISOLATED else None
    with wall.create_log(log) as out:
        rc, _ = wall.finish(wall.spawn(cmd, where, env, out, who), 120)
    data = wall.read_bounded(log, 1 << 16)[0].decode("utf-8", errors="replace")
    if whole:
        return "" if ok_only and rc != 0 else data
    return data.splitlines()[0] if rc == 0 and data.strip() else ""


def stage(args, student, labs, where):
    """The submission's exercise files copied into where (the grader's, mode 700) before
    any student code runs. Returns (where, {relative path: why refused})."""
    names = set()
    for labdir in labs.values():
        names.update(exercise_names(args.root, labdir) or [])
    os.makedirs(where, mode=0o700)
    return where, stage_submission(os.path.abspath(student), where, names)


def overlay(args, staged, tree, labs):
    """Puts the graded exercise files from the staged submission (stage(): the grader's
    copy, (path, refused)) into the scratch tree. Returns {num: note}; a note starting 'not
    submitted' means the lab has nothing to grade. staged None: the tree grades itself."""
    notes = {}
    if not staged:
        return notes
    source, refused = staged
    for num, labdir in labs.items():
        names = exercise_names(args.root, labdir)
        if names is None:
            notes[num] = ("not submitted: this tree has neither solutions/ nor "
                          "common/grade/exercises.txt to say which files a student writes")
            continue
        taken = {}
        problems = ["%s %s" % (path, why) for path, why in sorted(refused.items())
                    if os.path.basename(path) in names]
        for name in names:
            path = find_in_submission(source, labdir, name)
            if path:
                with open(path, "rb") as f:
                    taken[name] = f.read()
        if not taken:
            notes[num] = "not submitted: no %s in the submission%s" % (
                " or ".join(names), "".join("; " + p for p in problems))
            continue
        for name, data in taken.items():
            with open(os.path.join(tree, "labs", labdir, name), "wb") as f:
                f.write(data)  # a fresh mtime: make rebuilds it
        missing = [n for n in names if n not in taken]
        if missing or problems:
            notes[num] = "; ".join(problems + (["%s not in the submission: the skeleton was "
                                                "graded" % ", ".join(missing)] if missing else []))
    return notes


def remove(*folders):
    for d in folders:
        if d:
            shutil.rmtree(d, ignore_errors=True)
