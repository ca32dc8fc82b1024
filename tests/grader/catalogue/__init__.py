"""The catalogue of submissions that the grader must judge right: per lab (labNN.py), wrong ones
made from the solution by the bugs students make, each of which must lose the tests of the
variant it breaks, and right ones written otherwise than the solution, which must score full
marks. catch_rate.py grades them all and reports the catch rate per lab.

A lab's module names its exercise FILE and two tables of entries made with wrong() and right().
An entry's edits are (old, new) pairs applied once each to the solution's file (FILE, or the
entry's own file= in a lab of several exercise files); a stale old (the solution changed) is an
error, not a silent pass."""

import collections
import importlib
import os
import pkgutil

Entry = collections.namedtuple("Entry", "lab file name kind edits tests race line")


def wrong(edits, tests, race=False, line=None, file=None):
    """A bug. tests: the variants (kernel names) or fnmatch patterns of the tests it must lose,
    at least one of them; race: only the race checker sees it, so it needs that run; line: text
    ending on the line that a losing test's feedback must name as FILE:LINE (a sanitizer, the
    race checker or the strict mode saw it), or None where only the answer is wrong; file: the
    exercise file the edits go to, where not the lab's FILE."""
    return ("wrong", edits, tests, race, line, file)


def right(edits, tests, file=None):
    """Right code written otherwise: full marks in the tests of the variants it touches."""
    return ("right", edits, tests, True, None, file)


def patterns(tests):
    """grade.py --tests patterns for an entry: a variant V stands for V and every PROPERTY.V,
    visible or hidden; a pattern with * or . is taken as it is."""
    out = []
    for t in tests:
        out += [t] if "*" in t or "." in t else [t, "*." + t]
    return out


def entries(labs=None):
    """Every entry of the labs (NN strings; None: all), in lab order."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for mod in sorted(m.name for m in pkgutil.iter_modules([here]) if m.name.startswith("lab")):
        lab = mod[3:5]
        if labs and lab not in labs:
            continue
        m = importlib.import_module("catalogue." + mod)
        for table in (m.WRONG, m.RIGHT):
            for name, (kind, edits, tests, race, line, file) in table.items():
                found.append(Entry(lab, file or m.FILE, name, kind, edits, tests, race, line))
    return found


def apply(entry, solution_text):
    """The entry's file: the solution with its edits. ValueError names an edit whose old text
    is not in the solution exactly once."""
    text = solution_text
    for old, new in entry.edits:
        if text.count(old) != 1:
            raise ValueError("lab%s %s: the solution has %d copies of %r (fix the catalogue)" % (
                entry.lab, entry.name, text.count(old), old[:60]))
        text = text.replace(old, new, 1)
    return text
