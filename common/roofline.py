#!/usr/bin/env python3
"""The roofline's table (common/roofline.sh, make lab13 roofline), for any lab whose bench
counts its work in flops: a line per GPU row of the bench's main size (the lab's variants and
its library rows), with the flops and the median time from the bench's TSV and the bytes
that row's kernels moved from Nsight Compute's CSV of one run of that row alone (--page raw,
--print-units base: bytes and nanoseconds; every launch of the run counted, so a library
call of two kernels is one row), then the ceilings plots/roofline.gp draws.

    roofline.py --metrics                   the metrics to ask ncu for, comma-separated
    roofline.py --rows BENCH-TSV            the rows to profile, a line each, in order
    roofline.py BENCH-TSV DIR [OPTIONS...]  the TSV on stdout, from DIR/row1.csv, row2.csv...
                                            (OPTIONS: the runs' options, for the first line)

Columns: variant, kind, flops, dram_bytes, l2_bytes (Nsight Compute's lts__t_bytes: every
byte through L2, the loads that L1 did not serve among them), seconds (the bench's median),
ncu_seconds (the row's kernels under Nsight Compute, caches flushed: one cold run), intensity
(flops a DRAM byte), l2_intensity, tflops, then the ceilings, the same on every line:
peak_gbs (the bench's theoretical DRAM peak), fp32_tflops (2 x the bench's FP32 instructions
a second), tf32_tflops (dense TF32 tensor cores at the same clock, "-" where not known), and
device, date. A figure Nsight Compute did not give is "-".
"""
import csv
import os
import sys

import profile as ncu_csv  # common/profile.py: this directory comes first on sys.path

METRICS = "gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum"
# Dense TF32 tensor-core flops for each FP32 flop at the same clock and SM count, by compute
# capability (NVIDIA's whitepapers: A100 156 against 19.5 TFLOP/s; H100 2048 against 256
# flops a clock and SM; the data-centre and workstation chips of 8.6 and 8.9 twice their FP32
# rate, GeForce cards, which halve it, once). Not listed: no TF32 line.
TF32_PER_FP32 = {"8.0": 8, "8.6": 2, "8.9": 2, "9.0": 8}
COLUMNS = ("variant kind flops dram_bytes l2_bytes seconds ncu_seconds intensity l2_intensity "
           "tflops peak_gbs fp32_tflops tf32_tflops device date").split()


def main_rows(path):
    """The bench's rows of its main size that ran on the GPU: its variants and library rows."""
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [r for r in rows if r["series"] == "main" and r["kind"] in ("variant", "library")]


def summed(path):
    """Nanoseconds, DRAM bytes and L2 bytes of every launch of one row's run (None: not given)."""
    launches = ncu_csv.launches(path)
    if not launches:
        return None
    total = {}
    for metric in METRICS.split(","):
        given = [r[metric] for r in launches if ncu_csv.number(r.get(metric, "")) > 0]
        total[metric] = sum(map(ncu_csv.number, given)) if given else None
    total["CC"] = launches[0].get("CC", "")
    return total


def tf32_ceiling(fp32_flops, cc, device):
    ratio = TF32_PER_FP32.get(cc)
    if ratio is None:
        return None
    if cc in ("8.6", "8.9") and "GeForce" in device:
        ratio /= 2
    return fp32_flops * ratio


def cell(value, fmt="%.6g"):
    return "-" if value is None else fmt % value


def table(bench_tsv, folder, options):
    rows = main_rows(bench_tsv)
    if not rows or rows[0]["work_unit"] != "flop":
        sys.exit("roofline: %s has no rows whose work is counted in flops" % bench_tsv)
    lab = rows[0]["lab"]
    first = rows[0]
    fp32 = 2 * float(first["fp32_per_work"]) * float(first["work_ceiling"])
    print("# %s roofline: measured (the bench's median times, Nsight Compute's bytes)" % lab)
    print("# flops and times: %s bench%s; bytes: Nsight Compute on one %s run --variant V of each"
          " row alone" % (lab, " " + options if options else "", lab))
    print("\t".join(COLUMNS))
    for i, r in enumerate(rows, 1):
        csv_path = os.path.join(folder, "row%d.csv" % i)
        got = summed(csv_path)
        if got is None:
            sys.exit("%s roofline: Nsight Compute profiled no kernel of %s (see %s)"
                     % (lab, r["variant"], csv_path))
        flops, seconds = float(r["work"]), float(r["ms_median"]) / 1e3
        dram, l2 = got["dram__bytes.sum"], got["lts__t_bytes.sum"]
        ns = got["gpu__time_duration.sum"]
        tf32 = tf32_ceiling(fp32, got["CC"], r["device"])
        print("\t".join([
            r["variant"], r["kind"], "%.0f" % flops, cell(dram, "%.0f"), cell(l2, "%.0f"),
            "%.6g" % seconds, cell(ns and ns / 1e9),
            cell(dram and flops / dram), cell(l2 and flops / l2), "%.6g" % (flops / seconds / 1e12),
            r["peak_gbs"], "%.6g" % (fp32 / 1e12), cell(tf32 and tf32 / 1e12),
            r["device"], r["date"]]))
    return 0


def main(argv):
    if argv[1:] == ["--metrics"]:
        print(METRICS)
        return 0
    if len(argv) == 3 and argv[1] == "--rows":
        for r in main_rows(argv[2]):
            print(r["variant"])
        return 0
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return table(argv[1], argv[2], " ".join(argv[3:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
