"""lab08 pattern repeater: modulo tiling, shared repeaters, lattices."""
from catalogue import right, wrong

FILE = "repeater.cu"

WRONG = {
    # the target offset in unsigned: row 4096 of a 2^20-wide target written over row 0
    "offset_unsigned": wrong([
        ("        target[(size_t)y * width + x] = repeater[y % rh * rw + x % rw];",
         "        target[y * width + x] = repeater[y % rh * rw + x % rw];")],
        ["past_2_32.tile_modulo"]),
    # the modulo of the wrong dimension (x % rh): right for square repeaters only
    "wrong_modulo": wrong([("repeater[y % rh * rw + x % rw];", "repeater[y % rh * rw + x % rh];")],
                          ["tile_modulo"]),
}

RIGHT = {}
