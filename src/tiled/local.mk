# Tiled maps (TMX, TMJ, TSX, TSJ): read into levels and written from them,
# with libxml2, jansson, nettle (base64), zlib and libzstd.
noinst_LIBRARIES += src/tiled/libfftiled.a
src_tiled_libfftiled_a_SOURCES = \
	src/tiled/tiled.h src/tiled/tiled_int.h \
	src/tiled/tiled_map.c \
	src/tiled/tiled_data.c \
	src/tiled/tiled_tmx.c \
	src/tiled/tiled_tmj.c \
	src/tiled/tiled_level.c \
	src/tiled/tiled_write.c
src_tiled_libfftiled_a_CFLAGS = $(AM_CFLAGS) $(LIBXML_CFLAGS) $(JANSSON_CFLAGS) \
	$(NETTLE_CFLAGS) $(ZLIB_CFLAGS) $(ZSTD_CFLAGS)
TILED_LIBS = src/tiled/libfftiled.a $(LIBXML_LIBS) $(JANSSON_LIBS) $(NETTLE_LIBS) \
	$(ZLIB_LIBS) $(ZSTD_LIBS)
