"""The points files: what each test is worth, and the perf lines a GPU grades.

A points file (tests/points/labNN.txt, tests/hidden/labNN.txt) has lines (# starts a
comment): NAME POINTS [VISIBILITY], perf VARIANT >= VALUE UNIT POINTS [VISIBILITY], and
bench ARGS. A bad line is a warning, never fatal: a grade is always written.
"""
import fnmatch
import os

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


UNITS = ("%peak", "%copy", "GB/s", "%fp32", "G/s")


class PointsError(ValueError):
    pass


def parse_points(text, source="points"):
    """Reads a points file. Lines (# starts a comment):
         NAME POINTS [VISIBILITY]                 a test and what it is worth (NAME may
                                                  be a pattern: twice_gives_input.*)
         perf VARIANT >= VALUE UNIT POINTS [VIS]  a bench threshold, graded on a GPU only
         bench ARGS...                            arguments of the bench run for perf lines
       Returns {"tests": {name: (points, visibility)}, "perf": [...], "bench": [...],
       "warnings": [...]}; a bad line is a warning and is ignored, never fatal."""
    out = {"tests": {}, "perf": [], "bench": None, "warnings": []}
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = "%s:%d" % (source, number)
        try:
            if words[0] == "bench":
                out["bench"] = words[1:]
            elif words[0] == "perf":
                out["perf"].append(parse_perf(words[1:], where))
            else:
                if len(words) not in (2, 3):
                    raise PointsError("want NAME POINTS [VISIBILITY]")
                out["tests"][words[0]] = (parse_number(words[1]),  # visibility None: the
                                          parse_visibility(words[2:], None))  # suite's default
        except PointsError as e:
            out["warnings"].append("%s: %s (line ignored): %s" % (where, e, raw.strip()))
    return out


def parse_perf(words, where):
    if len(words) not in (5, 6) or words[1] != ">=" or words[3] not in UNITS:
        raise PointsError("want perf VARIANT >= VALUE %s POINTS [VISIBILITY]" % "|".join(UNITS))
    return {"variant": words[0], "threshold": parse_number(words[2]), "unit": words[3],
            "points": parse_number(words[4]), "visibility": parse_visibility(words[5:], "visible"),
            "where": where}


def parse_number(word):
    try:
        value = float(word)
    except ValueError:
        raise PointsError("%r is not a number" % word)
    if value < 0:
        raise PointsError("negative points")
    return value


def parse_visibility(words, default):
    if not words:
        return default
    if words[0] not in VISIBILITIES:
        raise PointsError("visibility must be one of %s" % ", ".join(VISIBILITIES))
    return words[0]


def points_for(table, name):
    """(points, visibility) of a test: its own line, else the first pattern that matches it
    (`twice_gives_input.* 0.5`: every variant's), else 1 point."""
    if name in table:
        return table[name]
    for pattern, value in table.items():
        if fnmatch.fnmatchcase(name, pattern):
            return value
    return 1.0, None


def read_points(path):
    if not os.path.exists(path):
        return parse_points("")
    with open(path, encoding="utf-8") as f:
        return parse_points(f.read(), os.path.relpath(path))
