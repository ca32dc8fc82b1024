#!/usr/bin/env python3
"""The summary of `make labNN profile`: Nsight Compute's CSV (--page raw, --print-units
base: nanoseconds and bytes) to a line per kernel: its largest launch (the one that moves
the data; later passes of a reduction are small) and how many launches there were.

    profile.py --metrics   the metrics to ask ncu for, comma-separated
    profile.py CSV         the table
"""
import csv
import sys

# metric: (column title, scale, format)
METRICS = {
    "gpu__time_duration.sum": ("us", 1e-3, "%9.1f"),
    "dram__bytes.sum": ("DRAM MB", 1e-6, "%9.1f"),
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": ("DRAM %", 1, "%7.1f"),
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": ("SM %", 1, "%6.1f"),
    "sm__warps_active.avg.pct_of_peak_sustained_active": ("occup. %", 1, "%8.1f"),
    "smsp__inst_executed.sum": ("instr. M", 1e-6, "%9.2f"),
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": ("bank confl.", 1, "%11.0f"),
}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def launches(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own lines start with ==
    return [r for r in csv.DictReader(lines) if r.get("ID", "").isdigit()]  # not the units


def main(argv):
    if argv[1:] == ["--metrics"]:
        print(",".join(METRICS))
        return 0
    rows = launches(argv[1])
    if not rows:
        print("profile: Nsight Compute profiled no kernel (see %s)" % argv[1])
        return 1
    time = "gpu__time_duration.sum"
    kernels = {}
    for r in rows:  # "void reduce_cascaded<256>(const int *, ...)": reduce_cascaded<256>
        name = r["Kernel Name"].split("(")[0]
        kernels.setdefault(name[5:] if name.startswith("void ") else name, []).append(r)
    print("%-34s %8s " % ("kernel (its largest launch)", "launches") +
          " ".join(title for title, _, fmt in METRICS.values()))
    for name, runs in kernels.items():
        big = max(runs, key=lambda r: number(r.get(time, "0")))
        cells = []
        for metric, (title, factor, fmt) in METRICS.items():
            value = number(big.get(metric, "0")) * factor
            cells.append((fmt % value).rjust(len(title)))
        print("%-34s %8d " % (name[:34], len(runs)) + " ".join(cells))
    print("\n%d launches; all of Nsight Compute's figures: %s" % (len(rows), argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
