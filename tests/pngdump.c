/*
 * pngdump.c - decodes a PNG file with libpng and prints it as text for the
 * shell tests: "W H" on the first line, then one line per row of pixels,
 * each pixel six hex digits (rrggbb).  Exit status 1 when libpng refuses
 * the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

int main(int argc, char **argv)
{
	png_image im;
	png_bytep px;

	if (argc != 2) {
		fprintf(stderr, "usage: pngdump FILE.png\n");
		return 2;
	}
	memset(&im, 0, sizeof im);
	im.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&im, argv[1])) {
		fprintf(stderr, "pngdump: %s: %s\n", argv[1], im.message);
		return 1;
	}
	im.format = PNG_FORMAT_RGB;
	px = malloc(PNG_IMAGE_SIZE(im));
	if (!px || !png_image_finish_read(&im, NULL, px, 0, NULL)) {
		fprintf(stderr, "pngdump: %s: %s\n", argv[1], px ? im.message : "out of memory");
		return 1;
	}
	printf("%u %u\n", im.width, im.height);
	for (png_uint_32 y = 0; y < im.height; y++) {
		for (png_uint_32 x = 0; x < im.width; x++) {
			png_bytep p = px + 3 * ((size_t)y * im.width + x);
			printf("%02x%02x%02x", p[0], p[1], p[2]);
		}
		putchar('\n');
	}
	free(px);
	return ferror(stdout) ? 1 : 0;
}
