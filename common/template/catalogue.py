"""lab{{NN}} {{title}}: the bugs students make in its kernels, and right code written otherwise
(tests/grader/catch_rate.py grades each; replace them with the lab's own)."""
from catalogue import right, wrong

FILE = "{{id}}.cu"

WRONG = {
    # a bounds check one too far: a write past the end of out (AddressSanitizer names it)
    "past_the_end": wrong([("    if (i < n)\n        out[i] = 2.0f * in[i];",
                            "    if (i <= n)\n        out[i] = 2.0f * in[i];")],
                          ["thread_per_element"],
                          line="    if (i <= n)\n        out[i] = 2.0f * in[i];"),
    # the loop stops one short: the last element is never written
    "tail_dropped": wrong([("; i < n; i += stride)", "; i + 1 < n; i += stride)")],
                          ["grid_stride"]),
}

RIGHT = {
    # an early return instead of the guarded store
    "early_return": right([("    if (i < n)\n        out[i] = 2.0f * in[i];",
                            "    if (i >= n)\n        return;\n    out[i] = 2.0f * in[i];")],
                          ["thread_per_element"]),
}
