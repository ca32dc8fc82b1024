"""lab00 hello: where a thread sits in its block and grid."""
from catalogue import right, wrong

FILE = "hello.cu"

WRONG = {
    # the lane from threadIdx.x alone: right in 1D blocks, wrong in 8 x 8 ones
    "lane_from_x": wrong([("    p.lane = p.thread % warpSize;",
                           "    p.lane = threadIdx.x % warpSize;")], ["place_2d", "place_3d"]),
}

RIGHT = {}
