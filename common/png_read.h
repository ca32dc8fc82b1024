/* A PNG file as an 8-bit grayscale image, through libpng's simplified API: for the labs that
 * read images (lab10's Sobel edges of a picture). Linked, as png_write.c, only into the
 * binaries that hold a lab's command line: a lab names it in its lab.mk (labNN_MAIN_C :=
 * common/png_read.c, with -lpng in labNN_MAIN_LIBS and libpng in labNN_NEEDS). */
#ifndef PNG_READ_H
#define PNG_READ_H

#include <stddef.h>

/* The PNG at path, whatever its colour type and depth, as width x height bytes of gray,
 * row 0 at the top and no padding (colour and transparency converted away by libpng):
 * malloc'ed into *pixels, its sides in *width and *height. 0, or -1 with *why (static text,
 * or libpng's message) saying why: no such file, not a PNG, a side over max_side, out of
 * memory. */
int read_png_gray(const char *path, size_t max_side, unsigned char **pixels, size_t *width,
                  size_t *height, const char **why);

#endif
