/* png_read.h's reader: libpng's simplified API (png_image), which converts any PNG to the
 * format asked for. */
#include "png_read.h"
#include <png.h>
#include <stdlib.h>
#include <string.h>

int read_png_gray(const char *path, size_t max_side, unsigned char **pixels, size_t *width,
                  size_t *height, const char **why)
{
    static char message[sizeof((png_image *)0)->message];
    png_image image;
    unsigned char *p;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *pixels = NULL;
    if (!png_image_begin_read_from_file(&image, path)) {
        memcpy(message, image.message, sizeof message);
        *why = message;
        return -1;
    }
    if (image.width == 0 || image.height == 0 || image.width > max_side ||
        image.height > max_side) {
        png_image_free(&image);
        *why = "a side past what the lab takes";
        return -1;
    }
    image.format = PNG_FORMAT_GRAY;
    if (!(p = malloc(PNG_IMAGE_SIZE(image)))) {
        png_image_free(&image);
        *why = "out of memory";
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, p, 0, NULL)) {
        memcpy(message, image.message, sizeof message);
        *why = message;
        free(p);
        return -1;
    }
    *pixels = p;
    *width = image.width;
    *height = image.height;
    return 0;
}
