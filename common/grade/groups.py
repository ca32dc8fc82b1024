"""A lab's tests run in groups: one judge and one worker for many tests, which a test that
crashes, hangs or goes past a limit does not take down with it.

Starting a pair costs more than most tests: a fresh process pays for its sanitizer's shadow
memory again (the race checker's run of lab06's 16 tests took 85 s one pair for all against
157 s a pair each, on the same loaded 2-core machine). So a suite's tests are split into as
many groups as tests run side by side, each a pair that runs its tests in order. The judge
writes each test's start and end to a progress file of the grader's (TESTKIT_PROGRESS) and
marks each test in its own output and the worker's (TESTKIT_MARK), so that:
- a test that passes in its group passed (its verdict is the judge's XML, as alone);
- a test that fails has its own output, split from the pair's at the marks, with the
  worker's fate where it crashed it; the judge then runs no more tests in that process (the
  worker is gone), and the rest of the group goes on in a new pair; a test after it in the
  same pair that fails too runs again in a new pair (the first failure may have left the
  worker broken: on a GPU, a fault is sticky);
- a test that runs past its own time limit, or makes its worker go past a limit of memory or
  disk, is stopped with the pair; the tests it stopped go on in a new pair;
- a test whose ending the grader could not see for itself (the pair was stopped while it
  had ended without passing) runs again alone.
Each test draws its inputs from the seed and its own name, so it sees the same inputs in a
group as alone.
"""
import concurrent.futures
import os
import re
import time

from run import (STOP, TESTKIT_MARK, pair, read_junit, run_test, verdict)

SOLO = "solo"  # a test to run again alone


def read_progress(text):
    """{name: {"start": t, "passed": t}} from the judge's progress lines, and the order in
    which tests started."""
    seen, order = {}, []
    for line in text.splitlines():
        words = line.split()
        if len(words) != 3 or words[0] not in ("start", "passed"):
            continue
        try:
            when = float(words[2])
        except ValueError:
            continue
        if words[0] == "start":
            order.append(words[1])
        seen.setdefault(words[1], {})[words[0]] = when
    return seen, order


def split_marked(text):
    """{test: its lines} from a pair's output cut at the marks, and what came before."""
    parts, before, name = {}, [], None
    for line in text.splitlines():
        if line.startswith(TESTKIT_MARK):
            name = line[len(TESTKIT_MARK):].strip()
            parts.setdefault(name, [])
            continue
        (parts[name] if name is not None else before).append(line)
    return {n: "\n".join(lines) for n, lines in parts.items()}, "\n".join(before)


def run_group(args, ctx, judge, worker, names, limit_of, deadline, tag, uid):
    """The tests names in one pair, in order, each within limit_of(its name) and all before
    deadline (the lab's). Returns ({name: result} for the tests that ended, [names not
    run]); a result's status SOLO asks for a run alone."""
    lab_ran_out = []

    def watch(lines, start):
        seen, order = read_progress(lines)
        if order and "passed" not in seen[order[-1]]:
            now = order[-1]
            if time.monotonic() > deadline:
                lab_ran_out.append(now)
                return now
            if time.monotonic() - seen[now]["start"] > limit_of(now):
                return now
        return ""
    total = min(sum(limit_of(n) for n in names) + 5, max(deadline - time.monotonic(), 1) + 5)
    xml = {}
    run = pair(args, ctx, [judge] + names, worker, total, tag, uid,
               lambda jdir: xml.update(path=os.path.join(jdir, "cmocka.xml")) or
               {n: read_junit(xml["path"], n) for n in names}, watch=watch)
    seen, order = read_progress(run["progress"])
    judged, preamble = split_marked(run["judged"])
    printed, printed_before = split_marked(run["printed"])
    results, stopped = {}, run["stopped"] or run["timed_out"] or run["exceeded"]
    last = order[-1] if order else None
    failed_before = False  # after a test that fails, another's failure may be its doing (a
    for i, name in enumerate(order):  # GPU's sticky error): those run again in a fresh pair
        if failed_before and "passed" not in seen[name]:
            continue
        failed_before = failed_before or "passed" not in seen[name]
        ends = seen[name].get("passed") or (seen[order[i + 1]]["start"] if i + 1 < len(order)
                                            else None)
        secs = (ends or time.monotonic()) - seen[name]["start"]
        found = (run["found"] or {}).get(name)
        if "passed" in seen[name]:
            results[name] = {"status": "passed", "why": "passed", "output": "", "secs": secs}
        elif name == last and stopped:
            timed_out = name == run["stopped"] or (run["timed_out"] and not run["exceeded"])
            results[name] = verdict(args, None, timed_out, run["exceeded"], None,
                                    preamble + "\n" + judged.get(name, ""),
                                    printed_before + "\n" + printed.get(name, ""),
                                    limit_of(name), secs)
            if lab_ran_out:
                results[name]["why"] = ("stopped: the lab's time limit of %.0f s ran out while "
                                        "it ran" % args.lab_timeout)
        elif found is None:
            results[name] = {"status": SOLO}
        else:
            crashed_it = name == last and run["wrc"] not in (0, None)  # tests after a crash
            results[name] = verdict(args, found, False, "", run["wrc"] if crashed_it else None,
                                    preamble + "\n" + judged.get(name, ""),  # do not start
                                    (printed_before + "\n" if i == 0 else "") +
                                    printed.get(name, ""), limit_of(name), secs)
    return results, [n for n in names if n not in results]


def run_suite(args, ctx, judge, worker, names, deadline, suite, limit_of):
    """A suite's tests in args.jobs groups side by side, each test within its own limit
    (limit_of(name)) and all within what is left of the lab's (deadline). Returns
    {name: result}."""
    chunks = [names[i::args.jobs] for i in range(args.jobs) if names[i::args.jobs]]

    def limit(name):  # for a run alone, within what is left of the lab's time
        return max(1.0, min(limit_of(name), deadline - time.monotonic()))

    def one(k, chunk):
        results, todo, round_ = {}, list(chunk), 0
        while todo and not STOP.is_set() and deadline - time.monotonic() > 0:
            tag = "%s-%s-g%d-%d" % (os.path.basename(worker.path), suite, k, round_)
            round_ += 1
            uid = ctx.ids.borrow()
            try:
                got, todo = run_group(args, ctx, judge, worker, todo, limit_of, deadline, tag,
                                      uid)
            finally:
                ctx.ids.give_back(uid)
            if not got:  # not one test started (the judge itself failed): the first alone
                got, todo = {todo[0]: {"status": SOLO}}, todo[1:]
            for name, result in got.items():
                if result["status"] == SOLO or needs_device_alone(worker, result):
                    left = deadline - time.monotonic()
                    result = run_test(args, ctx, judge, worker, name, limit(name),
                                      "%s-solo-%s" % (tag, name))
                    if result["status"] == "timeout" and left < limit_of(name):
                        result["why"] = ("stopped: the lab's time limit of %.0f s ran out "
                                         "while it ran" % args.lab_timeout)
                results[name] = result
        for name in todo:
            results[name] = {"status": "timeout", "output": "", "secs": 0.0, "why":
                             "not run: the grading was stopped" if STOP.is_set() else
                             "not run: the lab's time limit of %.0f s ran out" % args.lab_timeout}
        return results
    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(chunks) or 1) as pool:
        for part in pool.map(lambda kc: one(*kc), enumerate(chunks)):
            out.update(part)
    return out


def needs_device_alone(worker, result):
    """On a GPU, a test that ran out of device memory beside others' tests: run_test runs it
    again, with the device alone if need be."""
    return (worker.backend == "cuda" and result["status"] != "passed" and
            bool(re.search("cudaErrorMemoryAllocation", result.get("output", ""))))
