/* The warp, as every lab's kernels name it: its width as a constant the compiler folds and
 * an array can be sized by (warpSize is a variable to nvcc), and the mask of all its lanes
 * for the *_sync intrinsics. */
#ifndef WARP_H
#define WARP_H

static const unsigned WARP = 32;
static const unsigned FULL_MASK = 0xffffffffu;

#endif
