#!/usr/bin/env python3
"""make test-notebook: runs notebooks/colab.ipynb as Colab would, but in this checkout (LABS_DIR:
no clone) and on the CPU backend, with the solutions where there are (SOLUTION=1), a cell at a
time, each within --timeout seconds.

    run.py [--timeout S] [--out FILE] [NOTEBOOK]

Fails when the committed notebook is not valid nbformat 4 or keeps outputs (it is committed
clean), when a cell raises (a make command that fails does) or runs past its time, or when no
cell shows a PNG (the plot). The executed copy goes to --out (build/notebook/colab.ipynb), with
every output, for a look at what a student sees.
"""
import argparse
import os
import sys
import time

try:
    import nbclient
    import nbformat
except ImportError:
    # Debian's packages (common/mk/packages.txt: notebook) are Debian's python3's, where
    # another python3 (pyenv, a virtual environment) comes first on the PATH.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def committed_clean(nb):
    """The cells of the committed notebook that keep outputs or an execution count."""
    return [i for i, c in enumerate(nb.cells)
            if c.cell_type == "code" and (c.outputs or c.execution_count is not None)]


def text_of(cell, lines=40):
    """The last lines a cell printed, and its error."""
    out = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            out.append(o.text)
        elif o.output_type == "error":
            out.append("%s: %s\n" % (o.ename, o.evalue))
    return "".join(out).splitlines()[-lines:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("notebook", nargs="?", default=os.path.join(ROOT, "notebooks", "colab.ipynb"))
    ap.add_argument("--timeout", type=int, default=300, help="seconds a cell may take")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "notebook", "colab.ipynb"))
    args = ap.parse_args()
    name = os.path.relpath(args.notebook, ROOT)

    nb = nbformat.read(args.notebook, as_version=4)
    nbformat.validate(nb)
    kept = committed_clean(nb)
    if nb.nbformat != 4 or kept:
        sys.exit("test-notebook: %s keeps outputs in cells %s: clear them (Edit > Clear all "
                 "outputs) before committing" % (name, kept))

    # As on a machine without a GPU, in this checkout, and with a make of its own: the
    # MAKEFLAGS of the make that runs us (its jobserver, its level) are not the notebook's.
    env = os.environ
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "SOLUTION"):
        env.pop(var, None)
    # (PYDEVD_...: the kernel's debugger, unused, warns of Python's frozen modules at its start)
    env.update(LABS_DIR=ROOT, BACKEND="cpu", PYDEVD_DISABLE_FILE_VALIDATION="1")
    if os.path.isdir(os.path.join(ROOT, "solutions")):
        env["SOLUTION"] = "1"

    started = {}

    def cell_start(cell, cell_index):
        started[cell_index] = time.monotonic()

    def cell_executed(cell, cell_index, execute_reply):
        first = next((line for line in cell.source.splitlines() if line.strip()), "")
        print("  cell %d (%s): %.0f s" % (cell_index, first[:60],
                                          time.monotonic() - started[cell_index]), flush=True)

    client = nbclient.NotebookClient(nb, timeout=args.timeout, kernel_name="python3",
                                     resources={"metadata": {"path": ROOT}},
                                     on_cell_start=cell_start, on_cell_executed=cell_executed)
    t0 = time.monotonic()
    failed = None
    try:
        client.execute()
    except nbclient.exceptions.CellTimeoutError:
        failed = "a cell ran past %d s" % args.timeout
    except nbclient.exceptions.CellExecutionError as e:
        failed = "a cell failed: %s" % str(e).strip().splitlines()[-1]
    except nbclient.exceptions.DeadKernelError as e:
        failed = "the kernel died: %s" % e
    finally:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        nbformat.write(nb, args.out)

    if failed:
        last = max(started) if started else None
        if last is not None:
            print("\n".join("  | " + line for line in text_of(nb.cells[last])))
        sys.exit("test-notebook: %s: %s (cell %s; every output: %s)"
                 % (name, failed, last, os.path.relpath(args.out, ROOT)))
    images = sum(1 for c in nb.cells for o in c.get("outputs", [])
                 if o.output_type in ("display_data", "execute_result") and "image/png" in o.data)
    if not images:
        sys.exit("test-notebook: %s ran, but no cell showed a plot (every output: %s)"
                 % (name, os.path.relpath(args.out, ROOT)))
    print("test-notebook: %s ran in %.0f s on the CPU backend, in this checkout: %d cells, "
          "%d plot%s shown" % (name, time.monotonic() - t0, len(nb.cells), images,
                               "s" if images > 1 else ""))


if __name__ == "__main__":
    main()
