"""lab09 distance transform: scatter with atomicMin, gather, exact separable passes."""
from catalogue import right, wrong

FILE = "distance.cu"

WRONG = {
    # the window one pixel short at its far edges (px < x1, not <=)
    "window_short": wrong([
        ("        for (int px = win.x0; px <= win.x1; px++)\n            atomicMin(",
         "        for (int px = win.x0; px < win.x1; px++)\n            atomicMin(")],
        ["scatter_atomic_min"]),
}

RIGHT = {}
