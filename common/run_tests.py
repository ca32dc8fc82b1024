#!/usr/bin/env python3
"""`make labNN test` runs a lab's cmocka tests through this: a line per lab when all is well,
and for each test that is not, what went wrong and where, in a few lines.

    run_tests.py [--label lab01] [--timeout S] [--verbose] [--skip-fails] [--no-list]
                 BINARY [TEST...]

Every test (or each TEST named) runs in the test binary, whose whole output is kept in
BINARY.log. A test that crashes or hangs past S seconds (the grader's limit) costs that test
only: the binary runs again for the tests after it. A crash under AddressSanitizer is cut
down to its kind, the lines of the lab's code it went through, and the case the test was
at (the testkit prints one line per case: TESTKIT_CASES=1); one that the CPU backend stopped
to its report (a race, a barrier divergence: their lines). --skip-fails: a test that skips
(no device) is a failure, with its reason. --no-list: a cmocka binary that cannot --list
its tests (the CPU backend's own) runs once, whole. Exit status 1 when a test did not pass.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

RUN = re.compile(r"^\[ RUN      \] (\S+)")
RESULT = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+)$")
LIMIT = 6  # lines of a failure's message shown


def names(binary):
    out = subprocess.run([binary, "--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    if out.returncode != 0:
        sys.exit("%s --list failed: %s" % (binary, out.stderr.strip()))
    return out.stdout.split()


def run(binary, tests, timeout, verbose, log):
    """Runs the tests in one process. Returns ({name: (status, lines)}, the test it stopped
    in, why it stopped: "" (at the end), "crashed" or "timeout")."""
    env = dict(os.environ, TESTKIT_CASES="1")
    env.pop("CMOCKA_MESSAGE_OUTPUT", None)
    p = subprocess.Popen([binary] + tests, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=env, start_new_session=True)
    results, current, lines, started = {}, None, [], time.monotonic()
    os.set_blocking(p.stdout.fileno(), False)
    buffered = b""
    while True:
        chunk = p.stdout.read()
        if chunk:
            buffered += chunk
            *complete, buffered = buffered.split(b"\n")
            for raw in complete:
                line = raw.decode("utf-8", "replace")
                log.write(line + "\n")
                if verbose:
                    print(line, flush=True)
                m, r = RUN.match(line), RESULT.match(line)
                if m:
                    current, lines, started = m.group(1), [], time.monotonic()
                elif r and r.group(2) == current:
                    results[current] = (r.group(1), lines)
                    current = None
                elif current:
                    lines.append(line)
        elif p.poll() is not None:
            break
        elif current and time.monotonic() - started > timeout:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return results, current, "timeout", lines
        else:
            time.sleep(0.02)
    if current:
        return results, current, "crashed", lines + [buffered.decode("utf-8", "replace")]
    return results, None, "" if p.returncode >= 0 else "crashed", lines


def sanitizer_summary(lines):
    """An AddressSanitizer or UBSan report in a few lines: its kind and access, the frames in
    the lab's code (labs/, solutions/, tests/), where the memory came from."""
    text = "\n".join(lines)
    kind = re.search(r"(?:ERROR|SUMMARY): (AddressSanitizer|UndefinedBehaviorSanitizer)[: ]+"
                     r"([\w-]+)", text)
    if not kind:
        return []
    out = ["%s: %s" % (kind.group(1), kind.group(2))]
    access = re.search(r"^(READ|WRITE) of size \d+", text, re.M)
    if access:
        out[0] += " (%s)" % access.group(0)
    ubsan = re.search(r"^(\S+:\d+:\d+): runtime error: (.*)$", text, re.M)
    if ubsan:
        out.append("%s: %s" % (ubsan.group(1), ubsan.group(2)))
    seen = set()
    for where, path in re.findall(r"#\d+ 0x[0-9a-f]+ in (.*?) ((?:labs|solutions|tests)/\S+)",
                                  text.split("allocated by")[0]):
        function = where.split("(")[0].split("<")[0]
        if (path, function) not in seen:
            seen.add((path, function))  # operator(): the CPU backend's launch of the kernel
            out.append("launched at %s" % path if function == "operator"
                       else "at %s in %s" % (path, function))
    origin = re.search(r"allocated by .*?\n(?:.*\n)*?.*?#\d+ 0x[0-9a-f]+ in \S+ "
                       r"((?:labs|solutions|tests)/\S+)", text)
    if origin:
        out.append("the memory was allocated at %s" % origin.group(1))
    return out


def decimal(text):
    """cmocka writes the integers of a failed assert_int_equal in hex, as 64-bit unsigned
    values: "0xffffffffffffffff != 0x5" reads better as "-1 != 5"."""
    def signed(m):
        v = int(m.group(0), 16)
        return str(v - (1 << 64) if v >= 1 << 63 else v)
    return re.sub(r"\b0x[0-9a-f]+\b", signed, text) if " != " in text else text


def explain(status, lines, timeout):
    """The few lines that say why a test did not pass."""
    cases = [line[len("case: "):] for line in lines if line.startswith("case: ")]
    at = ["the test was at: " + cases[-1]] if cases else []
    if status == "timeout":
        return ["did not finish within %.0f s: an endless loop, or threads waiting on each "
                "other?" % timeout] + at
    if status == "crashed":
        # a kernel the CPU backend stopped (a race, a barrier only part of the block reached):
        # its report names the lines; the check that saw the launch fail ended the test
        found = sanitizer_summary(lines) or [line for line in lines
                                             if line.startswith("cuda-cpu: ")][:LIMIT]
        if not found:
            signal_line = [line for line in lines if "Segmentation" in line or "signal" in line]
            found = ["crashed" + (": " + signal_line[-1].strip() if signal_line else "")]
            if "SANITIZE" not in os.environ.get("MAKEFLAGS", "") and not found[1:]:
                found.append("(with SANITIZE=1 the CPU backend names the line that did it)")
        return found + at
    # cmocka 1.1: fail_msg() prints "ERROR: message", an assert "[  ERROR   ] --- a != b";
    # both end with "[   LINE   ] --- file:line: error: Failure!".
    errors, where = [], []
    for line in lines:
        found = re.search(r"\[   LINE   \] --- (\S+:\d+)", line)
        if found:
            where.append("(%s)" % found.group(1))
        elif line.startswith("ERROR: "):
            errors.append(line[len("ERROR: "):])
        elif line.startswith("[  ERROR   ] --- "):
            errors.append(decimal(line[len("[  ERROR   ] --- "):]))
    reports = [line for line in lines if line.startswith("cuda-cpu: ")]
    shown = reports + errors
    if shown and where:
        shown[-1] += " " + where[-1]
    return (shown or where or ["failed"])[:LIMIT]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--label", default="")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--skip-fails", action="store_true")
    ap.add_argument("--no-list", action="store_true")
    ap.add_argument("binary")
    ap.add_argument("tests", nargs="*")
    args = ap.parse_args(argv)
    label = args.label or os.path.basename(args.binary)
    known = [] if args.no_list else names(args.binary)
    todo = args.tests or known or [None]
    unknown = [t for t in todo if t and t not in known]
    if unknown:
        print("%s: no test named %s (tests: %s)" % (label, ", ".join(unknown), " ".join(known)))
        return 2
    results, seed = {}, ""
    with open(args.binary + ".log", "w", encoding="utf-8") as log:
        while todo:
            done, stopped, why, lines = run(args.binary, [t for t in todo if t], args.timeout,
                                            args.verbose, log)
            results.update(done)
            if stopped:
                results[stopped] = (why, lines)
            if not stopped and why:  # died between tests: the rest cannot be told apart
                for t in todo:
                    results.setdefault(t or "(the test program)", ("crashed", lines))
            todo = todo[todo.index(stopped) + 1:] if stopped and stopped in todo else []
        log.flush()
    with open(args.binary + ".log", encoding="utf-8") as log:
        found = re.search(r"TEST_SEED=\d+", log.read())
        seed = found.group(0) if found else ""
    bad = {t: r for t, r in results.items()
           if r[0] != "OK" and not (r[0] == "SKIPPED" and not args.skip_fails)}
    counts = {}
    for status, _ in results.values():
        word = {"OK": "passed", "FAILED": "failed", "SKIPPED": "skipped"}.get(status, status)
        counts[word] = counts.get(word, 0) + 1
    order = ("passed", "failed", "crashed", "timeout", "skipped")
    summary = ", ".join("%d %s" % (counts[w], w if w != "timeout" else "timed out")
                        for w in order if counts.get(w))
    print("%s: %s%s" % (label, summary, "" if not bad or not seed else
                        " (%s repeats the random inputs)" % seed))
    skipped = [t for t, r in bad.items() if r[0] == "SKIPPED"]
    if skipped:
        reasons = [line for _, lines in results.values() for line in lines if "skip" in line]
        print("  %d skipped, which is no pass: %s" % (
            len(skipped), reasons[0] if reasons else "see the log"))
    for name, (status, lines) in results.items():
        if name not in bad or status == "SKIPPED":
            continue
        shown = explain(status, lines, args.timeout)
        print("  %s %s: %s" % (name, {"FAILED": "failed"}.get(
            status, status.replace("timeout", "timed out")), shown[0]))
        for line in shown[1:]:
            print("    " + line)
    if bad:
        print("  (everything the tests printed: %s.log)" % args.binary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
