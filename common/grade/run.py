"""Running the student's code for the judges: builds through the Makefile, and each test as
a judge (our tests, no student code) and a worker (the student's code, walled off by
wall.py) joined by two pipes; the verdict from the judge's XML, the worker's fate to
explain a failure.
"""
import collections
import contextlib
import os
import platform
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_tests  # noqa: E402  (common/run_tests.py: how `make labNN test` explains a failure)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sandbox  # noqa: E402  (common/grade/sandbox.py: the namespaces of student code)
import wall  # noqa: E402  (common/grade/wall.py: uids, limits, bounded reads)
from report import OUTPUT_LIMIT, clip  # noqa: E402
from sources import plain_env  # noqa: E402

FILE_LIMIT = 64 << 20         # a test's code may write files up to this size (its log too)
BUILD_FILE_LIMIT = 512 << 20  # a build's (objects, binaries)
XML_LIMIT = 1 << 20           # the judge's cmocka XML, read at most this far
LOG_LIMIT = 4 << 20           # a pair's output, read back at most this far (its end)
TESTKIT_MARK = "@@ testkit: test "  # common/judge/remote.h's: a test starts in an output


class Worker(collections.namedtuple("Worker", "path backend race")):
    """A build of the student's code: its path, its backend (cpu, cuda) and whether it is the
    race checker's build. The grader built it, so it knows which (never asks it)."""


STOP = threading.Event()  # set by SIGTERM: start no more tests, write what there is


class GpuTurns:
    """On a GPU, the tests of a submission share the device with those of at most
    `owners - 1` other submissions graded at once (owners: a submission per 20 GB of the
    device's memory, so that a class never fills the card with many submissions' largest
    tests at once); the others wait, their builds and CPU runs going on meanwhile. A bench
    has it alone: a time measured beside another's tests would be theirs too. A waiting
    bench goes before new tests."""

    def __init__(self, owners=1):
        self.cond = threading.Condition()
        self.owners = owners
        self.sharing, self.alone, self.waiting = {}, False, 0  # sharing: {owner: tests}

    @contextlib.contextmanager
    def shared(self, owner=None):
        with self.cond:
            self.cond.wait_for(lambda: not self.alone and not self.waiting and
                               (owner in self.sharing or len(self.sharing) < self.owners))
            self.sharing[owner] = self.sharing.get(owner, 0) + 1
        try:
            yield
        finally:
            with self.cond:
                self.sharing[owner] -= 1
                if not self.sharing[owner]:
                    del self.sharing[owner]
                self.cond.notify_all()

    @contextlib.contextmanager
    def exclusive(self):
        with self.cond:
            self.waiting += 1
            self.cond.wait_for(lambda: not self.alone and not self.sharing)
            self.waiting -= 1
            self.alone = True
        try:
            yield
        finally:
            with self.cond:
                self.alone = False
                self.cond.notify_all()


def gpu_owners(device_line):
    """How many submissions may share the device: one per 20 GB of its memory (the second
    number after the first four of gpu_info_text.h's line is its global memory)."""
    try:
        return max(1, int(device_line.split()[4]) // (20 << 30))
    except (IndexError, ValueError):
        return 1


GPU = GpuTurns()
TRACE = os.environ.get("GRADE_TRACE") == "1"  # a line per pair on stderr


class Stopped(Exception):
    pass


def stop(signum, frame):
    """SIGTERM or SIGINT (Ctrl-C): no test starts again, and what runs is killed now."""
    STOP.set()
    wall.kill_started()
    raise Stopped()


def spawn(*args, **kwargs):
    """wall.spawn, unless the grading was stopped; one that starts as it stops is killed."""
    if STOP.is_set():
        raise Stopped()
    p = wall.spawn(*args, **kwargs)
    if STOP.is_set():
        wall.kill_started()
    return p


class Context:
    """Where one submission is graded: tree (its scratch tree, which its build uid owns and
    its group may enter), work (the grader's alone: logs), runs (a folder per test run, the
    worker's working folder), judges (the judges' tree, built once) and judge_runs (a folder
    per test for the judge's XML), its ids, device: {backend: the line of the device that
    the grader queried itself (common/judge/device_query.c)}, which every judge gets, and
    names: {(lab, hidden, backend): the tests its judge lists}."""

    def __init__(self, scratch, tree, judges, ids, device, names):
        self.scratch, self.tree, self.judges = scratch, tree, judges
        self.ids, self.device, self.names = ids, device, names
        self.work = os.path.join(scratch, "work")
        self.runs = os.path.join(scratch, "runs")
        self.judge_runs = tempfile.mkdtemp(prefix="runs-", dir=os.path.dirname(judges))
        os.makedirs(self.work, mode=0o700)  # the logs: the grader's alone
        os.makedirs(self.runs)
        wall.own(self.runs, None, ids.group, 0o750)
        wall.own(self.judge_runs, wall.judge_id(), wall.judge_id(), 0o700)


def limits(args, secs, file_bytes=None, procs=None):
    return wall.limits_for(secs * max(os.cpu_count() or 1, 1) + 5, file_bytes or FILE_LIMIT,
                           procs or args.procs)


def run_limited(args, cmd, cwd, env, timeout, log_path, ids=None, uid=None, file_bytes=None,
                procs=None, places=(), jail=None):
    """Runs cmd as uid of ids (a submission's build uid or test slot; None: the grader's
    user) with the limits of student code, in jail where the kernel allows (sandbox.py),
    output into log_path; places: folders of its own whose files count towards the disk
    limit. Returns (returncode, timed_out, secs, exceeded): exceeded names the memory or
    disk limit it went past, else "". Afterwards nothing of uid runs, and nothing it left
    in the shared folders remains."""
    start = time.monotonic()
    with wall.create_log(log_path) as log:
        p = spawn(cmd, cwd, env, log, ids.who(uid) if ids else None,
                  limits(args, timeout, file_bytes, procs), jail=jail)
    watch = wall.Watch(uid, {p.pid}, args.memory_limit << 20, args.disk_limit << 20, places,
                       wall.jailed(jail))
    watch.start()
    rc, timed_out = wall.finish(p, timeout)
    watch.stop()
    wall.sweep(uid)
    wall.clean_up(uid, wall.jailed(jail))
    return rc, timed_out, time.monotonic() - start, watch.exceeded


def no_aslr(race):
    """The race checker's processes run without address randomisation: ThreadSanitizer maps
    its shadow at fixed addresses, which the 32 random bits of newer kernels' mmap (Ubuntu
    24.04) may already hold ("unexpected memory mapping"), as setarch -R avoids."""
    setarch = shutil.which("setarch")
    return [setarch, platform.machine(), "-R"] if race and setarch else []


def jail_bytes(args):
    """The size of a jail's tmpfs mounts: a little over the disk limit, so that the watch
    sees the limit passed (and says so) before a write fails for want of room."""
    return (args.disk_limit << 20) + (16 << 20)


def tail(path, limit=OUTPUT_LIMIT):
    """The end of a log (never more than limit bytes read, no link followed)."""
    data, size = wall.read_bounded(path, limit)
    text = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "?",  # what XML cannot hold
                  data.decode("utf-8", errors="replace"))
    return ("[... %d bytes before this ...]\n" % (size - limit) if size > limit else "") + text


def signal_name(rc):
    try:
        return "%s (signal %d)" % (signal.Signals(-rc).name, -rc)
    except ValueError:
        return "signal %d" % -rc


def read_junit(path, name):
    """(status, message) for test `name` from the judge's cmocka XML, or None when it
    wrote none."""
    data, size = wall.read_bounded(path, XML_LIMIT, tail=False)
    if not data or size > XML_LIMIT:
        return None
    try:
        tree = ET.fromstring(data)
    except ET.ParseError:
        return None
    for case in tree.iter("testcase"):
        if case.get("name") != name:
            continue
        for kind in ("failure", "error", "skipped"):
            el = case.find(kind)
            if el is not None:
                message = "\n".join(t for t in (el.get("message"), el.text) if t and t.strip())
                return ("skipped" if kind == "skipped" else "failed"), message.strip()
        return "passed", ""
    return None


def run_test(args, ctx, judge, worker, name, timeout, tag):
    """One test: the judge (our tests, no student code, as the judge's uid) and the worker
    (the student's code, as a test slot's uid, with the limits) side by side, joined by two
    pipes. The judge's XML alone says pass or fail; the worker's fate explains a failure.
    On a GPU, a test that ran out of device memory beside others runs again with it alone.
    Returns a dict: status (passed, failed, skipped, crashed, timeout), why (a line or a
    few), output (the judge's and the worker's, cut), secs."""
    uid = ctx.ids.borrow()
    try:
        result = judge_and_worker(args, ctx, judge, worker, name, timeout, tag, uid)
        if worker.backend == "cuda" and result["status"] != "passed" and \
                "cudaErrorMemoryAllocation" in result["output"]:
            # the device's memory went to the tests beside it: once more, the device alone
            result = judge_and_worker(args, ctx, judge, worker, name, timeout, tag + "-alone",
                                      uid, alone=True)
        return result
    finally:
        ctx.ids.give_back(uid)


def judge_and_worker(args, ctx, judge, worker, name, timeout, tag, uid, alone=False):
    run = pair(args, ctx, [judge, name], worker, timeout, tag, uid,
               lambda jdir: read_junit(os.path.join(jdir, "cmocka.xml"), name), alone)
    result = verdict(args, None if run["timed_out"] else run["found"], run["timed_out"],
                     run["exceeded"], run["wrc"], run["judged"], run["printed"], timeout,
                     run["secs"])
    if result["status"] != "passed" and uid is not None and run["tasks"] >= args.procs - 2:
        result["why"] += ("\n(its code reached the limit of %d processes and threads, which may "
                          "be why)" % args.procs)
    return result


def pair(args, ctx, judge_argv, worker, timeout, tag, uid, read_back, alone=False, watch=None):
    """A judge (judge_argv, as the judge's uid, in a folder of its own) and the worker (as
    uid, with the limits) joined by two pipes, until the judge ends; on a GPU, with the
    device alone (a bench) or shared (GpuTurns). Returns a dict: found (what read_back(the
    judge's folder) gave), timed_out, exceeded, wrc and jrc (how the worker and the judge
    ended), judged and printed (their output), secs, tasks (the most processes and threads
    the worker's uid had). watch: for tests run in a group, watch(progress, start) is asked
    ten times a second with the judge's progress lines (TESTKIT_PROGRESS) so far, and stops
    the pair when it returns a reason (a test past its own limit), which the dict's stopped
    gives; progress then holds the lines."""
    turn = contextlib.nullcontext() if worker.backend != "cuda" else (
        GPU.exclusive() if alone else GPU.shared(ctx.tree))
    with turn:
        run = pair_now(args, ctx, judge_argv, worker, timeout, tag, uid, read_back, watch)
    if TRACE:  # where the time goes (common/grade/README.md)
        print("trace: %s %d tests %.1f s" % (tag, len(judge_argv) - 1, run["secs"]),
              file=sys.stderr, flush=True)
    return run


def wait_watching(jp, timeout, progress_path, watch, usage):
    """Waits for the judge jp, asking watch(progress lines, start) ten times a second;
    stops at timeout, at a reason from watch, or at a limit the usage watch found. Returns
    (returncode, timed_out, stopped: watch's reason or "")."""
    start = time.monotonic()
    while True:
        try:
            jp.wait(timeout=0.1)
            return wall.finish(jp, 0) + ("",)
        except subprocess.TimeoutExpired:
            pass
        lines = wall.read_bounded(progress_path, 1 << 20, tail=False)[0].decode(
            "utf-8", errors="replace")
        why = watch(lines, start)
        if STOP.is_set():
            why = "the grading was stopped"
        if why or usage.exceeded or time.monotonic() - start > timeout:
            if not usage.exceeded:
                ask_what_runs(usage)
            rc, _ = wall.finish(jp, 0)
            return rc, not why and not usage.exceeded, why


def ask_what_runs(usage):
    """Before a test that ran past its time is stopped: SIGUSR1 to its worker, whose CPU
    backend then says which kernel was running ("cuda-cpu: stopped in kernel ..."); a
    moment for it to write."""
    for pid in usage.pids():
        try:
            os.kill(pid, signal.SIGUSR1)
        except OSError:
            pass
    time.sleep(0.3)


def pair_now(args, ctx, judge_argv, worker, timeout, tag, uid, read_back, watch_progress=None):
    logs = os.path.join(ctx.work, tag)
    jdir, wdir = os.path.join(ctx.judge_runs, tag), os.path.join(ctx.runs, tag)
    jail = sandbox.Jail(ro=[ctx.tree], tmp_bytes=jail_bytes(args), gpu=worker.backend == "cuda")
    in_jail = wall.jailed(jail)  # its folder is then its jail's /tmp
    for d in (logs, jdir) + (() if in_jail else (wdir,)):
        os.makedirs(d)
    wall.own(jdir, wall.judge_id(), wall.judge_id(), 0o700)
    if not in_jail:
        wall.own(wdir, uid, ctx.ids.group, 0o700)
    from_judge, to_worker = os.pipe()  # each a pipe's read end, then its write end
    from_worker, to_judge = os.pipe()
    progress_path = os.path.join(logs, "progress.txt")
    progress = os.open(progress_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
    start = time.monotonic()
    worker_env = plain_env("/tmp" if in_jail else wdir,
                           {"CUDA_CPU_STRICT": "1"} if worker.backend == "cpu" else {})
    judge_env = plain_env(jdir, {  # the seed: the judge's alone, printed in its output
        "CMOCKA_MESSAGE_OUTPUT": "xml", "CMOCKA_XML_FILE": os.path.join(jdir, "cmocka.xml"),
        "TESTKIT_CASES": "1", "TEST_SEED": str(secrets.randbits(63)),
        "TESTKIT_REMOTE": "%d,%d" % (from_worker, to_worker),
        # what the judge knows from the grader, not from the worker: the device the grader
        # queried itself, and which build the worker is (the race checker's caps the sizes)
        "TESTKIT_GPU_INFO": ctx.device[worker.backend],
        "TESTKIT_RACE_CHECKER": "1" if worker.race else "0",
        "TESTKIT_PROGRESS": str(progress)})
    try:
        with wall.create_log(os.path.join(logs, "worker.txt")) as wlog, \
                wall.create_log(os.path.join(logs, "judge.txt")) as jlog:
            wp = spawn(no_aslr(worker.race) + [worker.path, str(from_judge), str(to_judge)],
                       "/tmp" if in_jail else wdir, worker_env, wlog, ctx.ids.who(uid),
                       limits(args, timeout), (from_judge, to_judge), jail)
            jwho = (wall.judge_id(), wall.judge_id()) if wall.ISOLATED else None
            jp = spawn(judge_argv, jdir, judge_env, jlog, jwho, (),
                       (from_worker, to_worker, progress))
    finally:
        for fd in (to_worker, from_judge, from_worker, to_judge, progress):
            os.close(fd)
    watch = wall.Watch(uid, {wp.pid}, args.memory_limit << 20, args.disk_limit << 20,
                       [] if in_jail else [wdir], in_jail)
    watch.start()
    if watch_progress:
        jrc, timed_out, stopped = wait_watching(jp, timeout, progress_path, watch_progress, watch)
    else:
        (jrc, timed_out), stopped = wall.finish(jp, timeout, lambda: ask_what_runs(watch)), ""
    wrc, _ = wall.finish(wp, 2.0)  # it ends when the judge's end of the pipe closes
    if in_jail and wrc is not None and wrc > 128:
        wrc = 128 - wrc  # bwrap exits 128 + N when its child dies of signal N
    watch.stop()
    wall.sweep(uid)
    wall.clean_up(uid, in_jail)
    if not in_jail:
        shutil.rmtree(wdir, ignore_errors=True)
    found = None if timed_out or stopped else read_back(jdir)
    shutil.rmtree(jdir, ignore_errors=True)
    return {"found": found, "timed_out": timed_out, "exceeded": watch.exceeded, "wrc": wrc,
            "jrc": jrc, "secs": time.monotonic() - start, "tasks": watch.tasks,
            "stopped": stopped, "start": start,
            "progress": wall.read_bounded(progress_path, 1 << 20, tail=False)[0].decode(
                "utf-8", errors="replace"),
            "judged": tail(os.path.join(logs, "judge.txt"), LOG_LIMIT).replace(ctx.tree + os.sep,
                                                                                ""),
            "printed": tail(os.path.join(logs, "worker.txt"), LOG_LIMIT).replace(ctx.tree + os.sep,
                                                                                 "")}


def verdict(args, found, timed_out, exceeded, wrc, judged, printed, timeout, secs):
    """A test's status from the judge's verdict (found) and the worker's end (wrc)."""
    report = sanitizer_report(printed + "\n" + judged)
    shown = judged.rstrip()
    if printed.strip():
        shown += "\n--- what the code under test printed ---\n" + (
            trim_report(printed) if report else printed).rstrip()
    output = clip(shown)
    both = judged + "\n" + printed
    if timed_out:
        cases = [line for line in judged.splitlines() if line.startswith("case: ")]
        status, why = "timeout", ("a hang: it did not finish within its time limit of %.0f s "
                                  "(an endless loop, or threads waiting on each other?)%s%s" % (
                                      timeout, "; it was at " + cases[-1][6:] if cases else "",
                                      "; " + running_kernel(printed) if running_kernel(printed)
                                      else ""))
    elif exceeded:
        status, why = "crashed", "stopped: it went past the limit on " + exceeded
    elif found is None:
        status, why = "crashed", ("the judge gave no verdict (a fault of the grader's: tell the "
                                  "instructor)")
    elif found[0] == "passed":
        status, why = "passed", "passed"
    elif found[0] == "skipped":
        status, why = "skipped", ("skipped, which scores nothing: " +
                                  (skip_reason(judged) or "the test could not run here"))
    elif report:
        status, why = "crashed", "crashed: " + report
    elif wrc is not None and wrc < 0 and wrc != -signal.SIGKILL:
        status, why = "crashed", "crashed: %s" % signal_name(wrc)
    elif "stopped answering" in judged:
        status, why = "crashed", ("the code under test ended during the test (exit status %s): "
                                  "exit() or abort in it?" % wrc)
    else:
        status, why = "failed", "failed: " + failure_text(both, found[1])
    return {"status": status, "why": why, "output": output, "secs": secs}


def running_kernel(printed):
    """The kernel that a worker stopped for running too long was in, as the CPU backend says
    when it is told to stop (its "cuda-cpu: stopped in kernel ..." line), or ""."""
    lines = [line for line in printed.splitlines() if line.startswith("cuda-cpu: stopped in ")]
    return lines[-1][len("cuda-cpu: "):][:300] if lines else ""


def failure_text(output, message):
    """Why a test failed, in a few lines: the backend's reports and the test's messages
    (cmocka prints them, its XML keeps only "file:line: error: Failure!"), then where."""
    shown = [line for line in run_tests.explain("failed", output.splitlines(), 0)
             if line != "failed"]
    where = re.search(r"(\S+:\d+): error", message or "")
    if where:
        shown.append("(the test's check at %s)" % where.group(1))
    return clip("\n".join(shown) or message or "see the output", OUTPUT_LIMIT // 2)


def race_lines(output, limit=6):
    """The race checker's and the strict mode's reports in a test's output (the CPU
    backend's "cuda-cpu: race ..." lines, which name the kernel and its lines)."""
    return [line[:300] for line in output.splitlines() if line.startswith("cuda-cpu: ")][:limit]


def sanitizer_report(output):
    """An AddressSanitizer or UBSan report in a few lines (the kind, the lab's lines it went
    through, where the memory came from, the case the test was at), or ""."""
    lines = output.splitlines()
    found = run_tests.sanitizer_summary(lines)
    if not found:
        return ""
    cases = [line[len("case: "):] for line in lines if line.startswith("case: ")]
    return clip("\n".join(found + (["the test was at: " + cases[-1]] if cases else [])),
                OUTPUT_LIMIT // 2)


def trim_report(output):
    """The output without the sanitizer's dump (runtime frames, shadow bytes), which the
    report's summary replaces; the lines before it (seed, cases, messages) stay."""
    start = re.search(r"^(=+\n)?==\d+==ERROR: |^\S+:\d+:\d+: runtime error: ", output, re.M)
    return output[:start.start()].rstrip() + "\n[the sanitizer's report, in short, is above]" \
        if start else output


def skip_reason(output):
    for line in output.splitlines():
        if "skip" in line.lower() and "SKIPPED" not in line:
            return line.strip()[:300]
    return ""


def sanitized(args, backend=None):
    """Whether the builds use the CPU backend's AddressSanitizer and UBSan: yes on the CPU
    backend (a memory bug fails its test with the kernel's line), unless SANITIZE=0."""
    return "SANITIZE=1" in args.make_var or ((backend or args.backend) == "cpu" and
                                             "SANITIZE=0" not in args.make_var)


def backends(args):
    """The backends a grading runs the tests on: the CPU backend; on a GPU, the GPU and the
    CPU backend both (what only the CPU backend sees, a race that gives the right answer,
    a barrier in a branch, must cost the test there too), unless --no-cpu-checks."""
    return ["cuda", "cpu"] if args.backend == "cuda" and args.cpu_checks else [args.backend]


def racechecked(args):
    """Whether each test runs again in the race checker's build (the CPU backend's
    RACECHECK=1): a race that the plain build's answer hides (a lost update on a total, a
    missing fence, blocks that overwrite each other's input) then costs the test."""
    return "cpu" in backends(args) and args.racecheck


def build_dir(args, labdir, race=False, tree="labs", backend=None):
    """Where the Makefile puts a lab's binaries (common/mk/config.mk's $(B))."""
    backend = backend or ("cpu" if race else args.backend)
    flavour = "-tsan" if race else "-asan" if sanitized(args, backend) else ""
    return os.path.join("build", backend + flavour, tree, labdir)


def judge_path(args, labdir, lab, hidden=False, backend=None):
    """Where the Makefile puts a lab's judge (common/mk/lab.mk's $(JB))."""
    return os.path.join("build", "judge-" + (backend or args.backend), "labs", labdir,
                        ("judge_hidden_" if hidden else "judge_") + lab)


def bench_judge_path(args, labdir, lab):
    """Where the Makefile puts a lab's bench judge (on a GPU only)."""
    return os.path.join("build", "judge-" + args.backend, "labs", labdir, "bench_" + lab)


def make(args, tree, targets, log_path, race=False, ids=None, uid=None, backend=None):
    """Builds targets of a tree through the Makefile, for backend (args.backend; the race
    checker's build is the CPU backend's), as uid of ids (the submission's build uid, for a
    tree with student code in it). Returns (ok, log)."""
    backend = backend or ("cpu" if race else args.backend)
    cmd = (["make", "--no-print-directory", "-j%d" % args.jobs, "BACKEND=" + backend,
            "SOLUTION=", "SANITIZE=%d" % sanitized(args, backend)] + args.make_var +
           (["RACECHECK=1"] if race else []) + list(targets))
    jail = sandbox.Jail(rw=[tree], tmp_bytes=jail_bytes(args)) if uid is not None else None
    start = time.monotonic()
    rc, timed_out, _, exceeded = run_limited(
        args, cmd, tree, plain_env(tree, {"TMPDIR": "/tmp"} if wall.jailed(jail) else {}),
        args.build_timeout, log_path, ids, uid, file_bytes=BUILD_FILE_LIMIT,
        procs=max(args.procs, 4 * args.jobs + 64), jail=jail)
    if TRACE:
        print("trace: make %s %.1f s" % (" ".join(targets), time.monotonic() - start),
              file=sys.stderr, flush=True)
    log = tail(log_path, 12000).replace(tree + os.sep, "")
    if timed_out:
        return False, log + "\n(the build did not finish within %.0f s)" % args.build_timeout
    if exceeded:
        return False, log + "\n(the build went past the limit on %s)" % exceeded
    return rc == 0, log


def compiler_message(log):
    """The lines of a failed build worth reading: the diagnostics, not make's echo."""
    keep = [line for line in log.splitlines()
            if re.search(r"error|warning|note:|undefined reference|\^|^\s+\d+ \|", line, re.I)
            and not line.startswith(("nvcc ", "gcc ", "g++ ", "make", "common/cpu/cucc "))]
    text = "\n".join(keep) if keep else log
    return text[-OUTPUT_LIMIT:]
