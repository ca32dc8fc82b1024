#!/usr/bin/env python3
"""`make tables`: the measured tables of the READMEs, handouts and slides, made from the
bench TSVs in plots/reference/, so that every figure has one source. `make test` runs
--check, which fails when a table differs from what its TSV gives, or when a perf line of
tests/points/ asks for more than the reference GPU reaches.

A table sits between two markers; everything between them is ours to rewrite:

    <!-- table LAB [series=SERIES] [rows=ROWS] [cols=COLS] [caption=no] -->
    <!-- end table -->

LAB's rows come from plots/reference/LAB.tsv, series main (or SERIES: a tuning's rows,
lab11's block_rows; until a GPU has measured it, a line that says so), in the TSV's order. ROWS picks
and orders them: comma-separated names and FIRST..LAST ranges (quote it when a name has
spaces); by default every row but the copy. COLS (comma-separated, default
variant,ms,gbs,pct_peak,pct_copy, and variant,ms,work_per_s,pct_fp32 for a compute-bound
lab, whose rows have a work unit):
    variant     the row's name          numbered    "N name" for a variant, N its place
    threads     the tuning it ran with  ms          median time
    gbs         effective GB/s          pct_peak    % of the theoretical peak
    pct_copy    % of the copy measured in the same run
    work_per_s  useful work a second (billions)   pct_fp32  % of the FP32 ceiling
    step        speedup over the variant above  cumulative  speedup over the first row
    pub_ms, pub_gbs, pub_step, pub_cumulative   published figures for the same variant, as
                published, from plots/reference/LAB-published.tsv (its comment says whose):
                those of the first device there with figures for one of the table's rows,
                or of the device named after an @ (pub_ms@GK107), so that a table can show
                several devices side by side
A caption line above the table names the device, date, size, peak and copy.

    <!-- table summary [LAB=VARIANT...] -->

is the README's table: one row per memory-bound lab, its fastest variant (or the one named
for it, when the fastest is a copy kept as the ceiling; LAB=- leaves the lab out) beside the
copy and the library row of the same run. A compute-bound lab's figures are in its handout's table.
"""
import argparse
import csv
import glob
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "plots", "reference")
START = re.compile(r"^<!-- table (.*?) -->\s*$")
END = "<!-- end table -->"
DEFAULT_COLS = "variant,ms,gbs,pct_peak,pct_copy"
COMPUTE_COLS = "variant,ms,work_per_s,pct_fp32"
TITLES = {"variant": "variant", "numbered": "kernel", "threads": "threads", "ms": "ms",
          "gbs": "GB/s", "pct_peak": "% of peak", "pct_copy": "% of copy", "step": "step",
          "cumulative": "cumulative", "work_per_s": "G/s", "pct_fp32": "% of FP32"}
PUB_TITLES = {"pub_ms": "ms", "pub_gbs": "GB/s", "pub_step": "step", "pub_cumulative": "cumulative"}


class TableError(Exception):
    pass


def read_tsv(path):
    if not os.path.exists(path):
        raise TableError("no %s" % os.path.relpath(path, ROOT))
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader((line for line in f if not line.startswith("#")),
                                   delimiter="\t"))


def main_rows(lab, series="main"):
    return [r for r in read_tsv(os.path.join(REFERENCE, lab + ".tsv")) if r["series"] == series]


def published(lab):
    """The published figures, {variant: {device: row}}, and the devices in the TSV's order."""
    path = os.path.join(REFERENCE, lab + "-published.tsv")
    table, devices = {}, []
    for r in read_tsv(path) if os.path.exists(path) else []:
        table.setdefault(r["variant"], {})[r["device"]] = r
        devices += [] if r["device"] in devices else [r["device"]]
    return table, devices


def pick(rows, spec):
    """The rows named by spec (names and FIRST..LAST ranges), in its order."""
    names = [r["variant"] for r in rows]
    if not spec:
        return [r for r in rows if r["kind"] != "copy"]
    chosen = []
    for item in spec.split(","):
        first, _, last = item.partition("..")
        for name in (first, last or first):
            if name not in names:
                raise TableError("no row %r (rows: %s)" % (name, ", ".join(names)))
        chosen += rows[names.index(first):names.index(last or first) + 1]
    return chosen


def ms(text):
    return "%.4g" % float(text) if text else ""


def ratio(before, now):
    return "%.2fx" % (float(before) / float(now)) if before and now else ""


def cells(rows, cols, pub, device):
    """The table's cells, a list per row; a pub_ column without @DEVICE is device's."""
    out = []
    for i, r in enumerate(rows):
        above = rows[i - 1] if i else None
        value = {
            "variant": r["variant"],
            "numbered": ("%d %s" % (i + 1, r["variant"]) if r["kind"] == "variant"
                         else r["variant"]),
            "threads": r["tuning"] if r.get("tuning", "0") != "0" else "",
            "ms": ms(r["ms_median"]),
            "gbs": "%.0f" % float(r["gbs"]),
            "pct_peak": "%.1f" % float(r["pct_peak"]),
            "pct_copy": "%.1f" % (100 * float(r["gbs"]) / float(r["copy_gbs"])),
            "step": (ratio(above["ms_median"], r["ms_median"])
                     if above and above["kind"] == r["kind"] == "variant" else ""),
            "cumulative": ratio(rows[0]["ms_median"], r["ms_median"]),
            "work_per_s": "%.3g" % (float(r.get("work_per_s") or 0) / 1e9),
            "pct_fp32": "%.1f" % float(r.get("pct_fp32") or 0),
        }
        for c in cols:
            if c.startswith("pub_"):
                p = pub.get(r["variant"], {}).get(c.partition("@")[2] or device, {})
                field = c.partition("@")[0][len("pub_"):]
                value[c] = ms(p.get("ms")) if field == "ms" else p.get(field, "")
        out.append([value[c] for c in cols])
    return out


def markdown(header, body):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return lines


def size(r):
    n = int(r["n"])
    return "n = 2^%d" % (n.bit_length() - 1) if n & (n - 1) == 0 else "n = %d" % n


def unit(rows):
    """A compute-bound lab's unit of work ("iterations"), or None."""
    u = rows[0].get("work_unit") if rows else None
    return u if u not in (None, "", "-") else None


def caption(lab, rows):
    r = rows[0]
    # the problem's size from a row of the lab's own: the copy row counts the words it copies
    sized = next((x for x in rows if x["kind"] != "copy"), r)
    if unit(rows):
        return ("%s, %s, %s (`plots/reference/%s.tsv`): FP32 ceiling %.3g G %s a second at "
                "%s FP32 instructions each." % (r["device"], r["date"], size(sized), lab,
                                                float(r["work_ceiling"]) / 1e9, unit(rows),
                                                r["fp32_per_work"]))
    copy = float(r["copy_gbs"])
    return ("%s, %s, %s (`plots/reference/%s.tsv`): theoretical peak %.0f GB/s, "
            "measured copy %.0f GB/s." % (r["device"], r["date"], size(sized), lab,
                                          float(r["peak_gbs"]), copy))


def lab_table(args):
    words = shlex.split(args)
    lab, options = words[0], dict(w.split("=", 1) for w in words[1:])
    unknown = set(options) - {"series", "rows", "cols", "caption"}
    if unknown:
        raise TableError("unknown option %s" % ", ".join(sorted(unknown)))
    if not os.path.exists(os.path.join(REFERENCE, lab + ".tsv")):  # a lab on its way
        return ["No reference measurement yet: `make %s bench SWEEP=1` on a GPU, then its "
                "`plots/data/%s.tsv` goes to `plots/reference/`." % (lab, lab)]
    series = options.get("series", "main")
    rows = main_rows(lab, series)
    if not rows:
        return ["No reference measurement of the series %s yet: `make %s bench` on a GPU, then "
                "its `plots/data/%s.tsv` goes to `plots/reference/`." % (series, lab, lab)]
    cols = options.get("cols", COMPUTE_COLS if unit(rows) else DEFAULT_COLS).split(",")
    chosen = pick(rows, options.get("rows"))
    pub, devices = published(lab)
    device = next((d for d in devices if any(d in pub.get(r["variant"], {}) for r in chosen)),
                  devices[0] if devices else "published")
    titles = dict(TITLES)
    for c in cols:
        field, _, named = c.partition("@")
        if field in PUB_TITLES and (not named or named in devices):
            titles[c] = "%s %s" % (named or device, PUB_TITLES[field])
    if unit(rows):
        titles["work_per_s"] = "G %s/s" % unit(rows)
    bad = [c for c in cols if c not in titles]
    if bad:
        raise TableError("unknown column %s" % ", ".join(bad))
    lines = [] if options.get("caption") == "no" else [caption(lab, rows), ""]
    return lines + markdown([titles[c] for c in cols], cells(chosen, cols, pub, device))


def summary_table(args):
    chosen = dict(w.split("=", 1) for w in shlex.split(args)[1:])
    body, device = [], None
    for path in sorted(glob.glob(os.path.join(REFERENCE, "lab[0-9][0-9].tsv"))):
        lab = os.path.basename(path)[:-len(".tsv")]
        rows = main_rows(lab)
        variants = [r for r in rows if r["kind"] == "variant"]
        if not variants or unit(rows) or chosen.get(lab) == "-":
            continue
        best = max(variants, key=lambda r: (r["variant"] == chosen.get(lab), float(r["gbs"])))
        library = [r for r in rows if r["kind"] == "library"]
        device = device or best["device"]
        body.append([lab, "%s (%s)" % (best["variant"], size(best)), "%.0f" % float(best["gbs"]),
                     "%.1f" % float(best["pct_peak"]),
                     "%.1f" % (100 * float(best["gbs"]) / float(best["copy_gbs"])),
                     ", ".join("%s %.0f" % (r["variant"], float(r["gbs"])) for r in library)])
    header = ["lab", "fastest variant", "GB/s", "% of peak", "% of the copy in the same run",
              "library in the same run, GB/s"]
    return ["Measured with `make labNN bench` on %s; every figure: `plots/reference/`." % device,
            ""] + markdown(header, body)


def documents():
    return [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "labs", "*", "README.md")) +
        glob.glob(os.path.join(ROOT, "slides", "*.md")))


def rewrite(path):
    """The document with its tables made anew, and the errors found (file:line: why)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, errors, i = [], [], 0
    where = os.path.relpath(path, ROOT)
    while i < len(lines):
        out.append(lines[i])
        m = START.match(lines[i])
        i += 1
        if not m:
            continue
        end = next((k for k in range(i, len(lines)) if lines[k].strip() == END), None)
        if end is None:
            errors.append("%s:%d: a table without %s" % (where, i, END))
            continue
        try:
            words = m.group(1).split()
            out += summary_table(m.group(1)) if words[0] == "summary" else lab_table(m.group(1))
        except (TableError, ValueError, KeyError) as e:
            errors.append("%s:%d: %s" % (where, i, e))
            out += lines[i:end]
        out.append(lines[end])
        i = end + 1
    return "\n".join(out), errors


def points_errors():
    """Perf thresholds of tests/points/*.txt that the reference GPU itself does not reach:
    the points files take their margins from plots/reference/, not from figures of their own."""
    errors = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "points", "lab[0-9][0-9].txt"))):
        lab = os.path.basename(path)[:-len(".txt")]
        if not os.path.exists(os.path.join(REFERENCE, lab + ".tsv")):
            continue
        rows = {r["variant"]: r for r in main_rows(lab)}
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                words = line.split("#", 1)[0].split()
                if len(words) < 5 or words[0] != "perf" or words[1] not in rows:
                    continue
                r, want, unit = rows[words[1]], float(words[3]), words[4]
                have = {"%peak": float(r["pct_peak"]), "GB/s": float(r["gbs"]),
                        "%copy": 100 * float(r["gbs"]) / float(r["copy_gbs"]),
                        "%fp32": float(r.get("pct_fp32") or 0)}.get(unit)
                if have is not None and have < want:
                    errors.append("%s:%d: %s asks more than the reference GPU reaches (%.1f %s)"
                                  % (os.path.relpath(path, ROOT), number, " ".join(words[:5]),
                                     have, unit))
    return errors


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the tables")
    mode.add_argument("--check", action="store_true", help="fail when one differs")
    args = ap.parse_args(argv)
    stale, errors = [], []
    for path in documents():
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new, found = rewrite(path)
        errors += found
        if new != old:
            stale.append(os.path.relpath(path, ROOT))
            if args.write:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    errors += points_errors()
    for e in errors:
        print("tables: " + e, file=sys.stderr)
    if args.check and stale:
        print("tables: %s differ from plots/reference/: run make tables" % ", ".join(stale),
              file=sys.stderr)
        return 1
    print("tables: %s" % ("%s rewritten" % ", ".join(stale) if args.write and stale
                          else "every table matches plots/reference/"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
