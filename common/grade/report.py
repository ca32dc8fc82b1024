"""What a grade says: a lab's test records, results.json (Gradescope's fields), JUnit XML,
the table on stdout, and GitHub Classroom's reporter payload.
"""
import base64
import json
import xml.etree.ElementTree as ET

OUTPUT_LIMIT = 4000           # characters of a test's output kept in the report


TOTAL_OUTPUT_LIMIT = 400000   # characters of all the tests' outputs in one results.json


def clip(text, limit=OUTPUT_LIMIT):
    """The end of text, at most limit characters, saying what was left out."""
    if len(text) <= limit:
        return text
    return "[... %d characters before this ...]\n" % (len(text) - limit) + text[-limit:]


def fmt(x):
    return ("%d" % x) if float(x).is_integer() else ("%g" % x)


class Lab:
    """One lab's results: a list of test records in the order they are reported."""

    def __init__(self, num, labdir):
        self.num, self.dir, self.lab = num, labdir, "lab" + num
        self.tests = []
        self.notes = []

    def add(self, name, points, visibility, result, hidden=False, suite="tests"):
        passed = result["status"] == "passed"
        self.tests.append({"name": name, "hidden": hidden, "suite": suite,
                           "max_score": points, "score": points if passed else 0,
                           "visibility": visibility, **result})

    def score(self):
        return sum(t["score"] for t in self.tests), sum(t["max_score"] for t in self.tests)

    def passed(self):
        counted = [t for t in self.tests if t["suite"] != "perf" or t["max_score"] > 0]
        return sum(t["status"] == "passed" for t in counted), len(counted)


def test_output(t):
    text = t["why"]
    if t["status"] != "passed" and t["output"].strip():
        text += "\n\n--- the test's output ---\n" + t["output"].strip()
    return text


def results_json(labs, secs, notes):
    tests, score, max_score = [], 0.0, 0.0
    for lab in labs:
        for i, t in enumerate(lab.tests, 1):
            entry = {"name": "%s %s%s" % (lab.lab, "hidden/" if t["hidden"] else "", t["name"]),
                     "number": "%d.%d" % (int(lab.num), i),
                     "score": t["score"], "max_score": t["max_score"],
                     "status": "passed" if t["status"] == "passed" else "failed",
                     "output": test_output(t), "visibility": t["visibility"]}
            if t["status"] == "skipped" and t["max_score"] == 0:
                del entry["status"]  # 0 of 0, a note (perf without a GPU): neither verdict
            tests.append(entry)
        s, m = lab.score()
        score, max_score = score + s, max_score + m
    if sum(len(t["output"]) for t in tests) > TOTAL_OUTPUT_LIMIT:  # a bound on the JSON
        for t in tests:
            t["output"] = clip(t["output"], TOTAL_OUTPUT_LIMIT // len(tests))
    return {"score": score, "max_score": max_score, "execution_time": round(secs),
            "output": clip(summary(labs, notes, hidden=False), 4 * OUTPUT_LIMIT),
            "visibility": "visible",
            "stdout_visibility": "hidden", "tests": tests}


def points_of(tests):
    return "%s/%s" % (fmt(sum(t["score"] for t in tests)), fmt(sum(t["max_score"] for t in tests)))


def summary(labs, notes, hidden=True):
    """The table (lab, passed/total, points) and what went wrong per lab. With hidden=False
    (what a student sees) hidden tests are left out of the counts."""
    lines = ["%-26s %9s %15s" % ("lab", "passed", "points")]
    for lab in labs:
        shown = [t for t in lab.tests if hidden or not t["hidden"]]
        counted = [t for t in shown if t["suite"] != "perf" or t["max_score"] > 0]
        lines.append("%-26s %9s %15s" % (
            lab.dir, "%d/%d" % (sum(t["status"] == "passed" for t in counted), len(counted)),
            points_of(shown)))
    total = [t for lab in labs for t in lab.tests if hidden or not t["hidden"]]
    lines.append("%-26s %9s %15s" % ("total", "", points_of(total)))
    if len(total) < sum(len(lab.tests) for lab in labs):
        lines.append("(the tests shown here; the score counts tests shown later too)")
    for lab in labs:
        for note in lab.notes:
            lines.append("\n%s: %s" % (lab.lab, note))
    lines += ["\n" + n for n in notes]
    return "\n".join(lines)


def junit(lab, path):
    """The lab's tests as one JUnit XML suite (cmocka's verdicts plus ours: crashes, hangs,
    builds that failed)."""
    suite = ET.Element("testsuite", name=lab.lab, tests=str(len(lab.tests)),
                       failures=str(sum(t["status"] == "failed" for t in lab.tests)),
                       errors=str(sum(t["status"] in ("crashed", "timeout") for t in lab.tests)),
                       skipped=str(sum(t["status"] == "skipped" for t in lab.tests)),
                       time="%.3f" % sum(t["secs"] for t in lab.tests))
    for t in lab.tests:
        case = ET.SubElement(suite, "testcase", name=t["name"], classname="%s.%s" % (
            lab.lab, t["suite"]), time="%.3f" % t["secs"])
        if t["status"] in ("failed", "crashed", "timeout"):
            el = ET.SubElement(case, "failure" if t["status"] == "failed" else "error",
                               message=t["why"].splitlines()[0][:200] if t["why"] else t["status"],
                               type=t["status"])
            el.text = t["why"]
        elif t["status"] == "skipped":
            ET.SubElement(case, "skipped", message=t["why"][:200])
        if t["output"]:
            ET.SubElement(case, "system-out").text = t["output"]
    root = ET.Element("testsuites")
    root.append(suite)
    if hasattr(ET, "indent"):  # Python 3.9 on
        ET.indent(root)
    ET.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)


def classroom_payload(results):
    """What GitHub Classroom's autograding-grading-reporter reads from a runner step's
    `result` output: base64 of {version, status, max_score, tests[name, status, score,
    message]}; it adds up the tests' scores. Hidden tests never reach a student's checkout."""
    tests = [{"name": t["name"], "status": "pass" if t.get("status") == "passed" else "fail",
              "score": t["score"], "max_score": t["max_score"], "message": t["output"][:1000],
              "test_code": "", "filename": "", "line_no": 0, "duration": 0}
             for t in results["tests"] if "status" in t]  # 0-of-0 notes: no pass, no fail
    most = results.get("max_score", 0)  # none: a grading that a fault of the host stopped
    payload = {"version": 1, "max_score": most, "tests": tests,
               "status": "pass" if 0 < most <= results.get("score", 0) else "fail"}
    return base64.b64encode(json.dumps(payload).encode()).decode()
