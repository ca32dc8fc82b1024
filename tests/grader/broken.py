"""The broken submissions of the grading tests (gradings.py, class_dist.py): lab01's solution
with one fault each, written into FIXTURES by make_fixtures() when test_grader.py starts.
"""
import os
import tempfile

from helpers import ROOT

FIXTURES = tempfile.mkdtemp(prefix="test-grader-fixtures-")  # filled by make_fixtures()

# The broken submissions: lab01's solution with one fault each, laid out as students hand
# them in (a loose file, a lab folder, a whole checkout). Made from the solution when the
# tests start, so they follow it; each (old, new) replaces the first occurrence of old.
FAULTS = {
    # a name it never declared: the file does not compile
    "compile_error/vector_add.cu": [
        ("        c[i] = a[i] + b[i];", "        c[idx] = a[i] + b[i];")],
    # a host function called from a kernel: g++ takes it, nvcc does not
    "host_call/vector_add.cu": [
        ('#include "check.h"\n', '#include "check.h"\n\nstatic float twice(float x)\n{\n'
         '    return 2 * x;\n}\n'),
        ("        c[i] = a[i] + b[i];", "        c[i] = twice(a[i]) - a[i] + b[i];")],
    # add_one_block steps by blockIdx.x, 0 in its one block: test one_block hangs
    "hang/lab01-vector-add/vector_add.cu": [
        ("i < n; i += blockDim.x)", "i < n; i += blockIdx.x)")],
    # the 2D launcher writes through a count used as an (aligned) address (SIGSEGV), the float4
    # launcher calls abort(): tests grid_2d and grid_stride_float4 crash
    "crash/labs/lab01-vector-add/vector_add.cu": [
        ("        dim3 grid2(1, 1);\n",
         "        dim3 grid2(1, 1);\n        *(int *)(size_t)(64 * blocks) = 0;\n"),
        ("    case ADD_GRID_STRIDE_FLOAT4:\n", "    case ADD_GRID_STRIDE_FLOAT4:\n        abort();\n")],
}


SOLUTIONS = {"vector_add.cu": "lab01-vector-add"}  # the solutions the faults start from


def make_fixtures():
    for path, edits in FAULTS.items():
        name = os.path.basename(path)
        with open(os.path.join(ROOT, "solutions", SOLUTIONS[name], name), encoding="utf-8") as f:
            text = f.read()
        for old, new in edits:
            if old not in text:
                raise SystemExit("test-grader: the solution changed, fix FAULTS: " + repr(old))
            text = text.replace(old, new, 1)
        os.makedirs(os.path.dirname(os.path.join(FIXTURES, path)), exist_ok=True)
        with open(os.path.join(FIXTURES, path), "w", encoding="utf-8") as f:
            f.write(text)
