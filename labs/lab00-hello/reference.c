/* lab00 reference: where each thread of a launch is, worked out on the CPU thread by thread,
 * in the order of blocks and threads (x fastest), not from the formulas of hello.cu. */
#include "hello.h"

unsigned long long hello_threads(struct hello_shape grid, struct hello_shape block)
{
    return (unsigned long long)grid.x * grid.y * grid.z * block.x * block.y * block.z;
}

void hello_places_cpu(struct hello_shape grid, struct hello_shape block, struct thread_place *out)
{
    unsigned width = grid.x * block.x, height = grid.y * block.y, b = 0;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++, b++) {
                unsigned t = 0;
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++, t++) {
                            unsigned x = bx * block.x + tx, y = by * block.y + ty;
                            unsigned z = bz * block.z + tz;
                            struct thread_place *p = &out[(z * height + y) * width + x];
                            p->global = (z * height + y) * width + x;
                            p->block = b;
                            p->thread = t;
                            p->warp = t / 32;
                            p->lane = t % 32;
                        }
            }
}
