/* A PNG file from an image's rows, through libpng: for the labs that draw images (lab02's
 * escape counts, lab03's ray-traced frames). Linked only into the binaries that hold a
 * lab's command line (main.c, rows.c): a lab names it in its lab.mk (labNN_MAIN_C := common/png_write.c, with
 * -lpng in labNN_MAIN_LIBS and libpng in labNN_NEEDS), so that the tests and the grader
 * never need libpng. (Not png.h: -I common would hide libpng's own header.) */
#ifndef PNG_WRITE_H
#define PNG_WRITE_H

#include <stddef.h>

/* Fills rgb (3 x width bytes, red first) with row y of the image. */
typedef void (*rgb_row_fn)(const void *image, size_t y, unsigned char *rgb);

/* The width x height image whose rows row() gives, as an 8-bit RGB PNG at path, row 0 at
 * the top; as 8-bit gray where every pixel is gray (a first pass of row() over the rows tells,
 * up to the first colour). 0, or -1 with "prog: cannot write PATH: why" printed on stderr. */
int write_png_rgb(const char *prog, const char *path, size_t width, size_t height, rgb_row_fn row,
                  const void *image);

#endif
