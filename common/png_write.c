/* png_write.h's writer: libpng's calls, its error jump, and the file's own errors. */
#include "png_write.h"
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct png_out {
    size_t width, height;
    rgb_row_fn row;
    const void *image;
    int gray; /* every pixel's red, green and blue equal: written as one gray byte */
};

/* 1 when every pixel of the image is gray. Such an image goes out as a gray PNG, a byte a
 * pixel where RGB has three, which deflate does not undo: lab10's Sobel picture beside its
 * edges takes 0.56 of the bytes. A pass over the rows more, cut short by a colour. */
static int all_gray(const struct png_out *j, unsigned char *row)
{
    for (size_t y = 0; y < j->height; y++) {
        j->row(j->image, y, row);
        for (size_t x = 0; x < j->width; x++)
            if (row[3 * x] != row[3 * x + 1] || row[3 * x] != row[3 * x + 2])
                return 0;
    }
    return 1;
}

/* libpng's part of write_png_rgb; -1 when libpng gave up (it has printed why). */
static int write_rows(png_structp png, png_infop info, FILE *f, const struct png_out *j,
                      unsigned char *row)
{
    if (setjmp(png_jmpbuf(png)))
        return -1;
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)j->width, (png_uint_32)j->height, 8,
                 j->gray ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (size_t y = 0; y < j->height; y++) {
        j->row(j->image, y, row);
        for (size_t x = 0; j->gray && x < j->width; x++)
            row[x] = row[3 * x]; /* in place: x <= 3 x */
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    return 0;
}

int write_png_rgb(const char *prog, const char *path, size_t width, size_t height,
                  rgb_row_fn row_of, const void *image)
{
    struct png_out j = {width, height, row_of, image, 0};
    unsigned char *row = malloc(3 * width);
    png_structp png = NULL;
    png_infop info = NULL;
    FILE *f;
    int status = -1;
    if (row)
        j.gray = all_gray(&j, row);
    errno = 0;
    f = fopen(path, "wb");
    if (f && row && (png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL)) &&
        (info = png_create_info_struct(png)))
        status = write_rows(png, info, f, &j, row);
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    if (f && fclose(f) != 0)
        status = -1;
    if (status)
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
                errno ? strerror(errno) : "libpng");
    free(row);
    return status;
}
