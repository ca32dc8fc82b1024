"""lab03 ray tracer: constant memory, read-only loads, shared tiles."""
from catalogue import right, wrong

FILE = "raytracer.cu"

WRONG = {}

RIGHT = {}
