"""lab02 Mandelbrot: a pixel per thread, and the tests that save work."""
from catalogue import right, wrong

FILE = "mandelbrot.cu"

WRONG = {
    # c taken with x and y swapped: the image mirrored about its diagonal
    "swapped_xy": wrong([
        ("        counts[(size_t)py * f.width + px] =\n"
         "            escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);",
         "        counts[(size_t)py * f.width + px] =\n"
         "            escape_count(f.x0 + py * f.dx, f.y1 - px * f.dy, f.maxiter);")],
        ["per_pixel", "interior_saves_work", "periodicity_saves_work", "combined_saves_work"]),
}

RIGHT = {}
