# Pictures of levels and fields: SVG (libxml2) and PNG (libpng), for the
# program's 'show' and 'solve' and the editor's ':export'.
noinst_LIBRARIES += src/pic/libffpic.a
src_pic_libffpic_a_SOURCES = \
	src/pic/pic.h \
	src/pic/palette.c \
	src/pic/svg.c \
	src/pic/png.c
src_pic_libffpic_a_CFLAGS = $(AM_CFLAGS) $(LIBXML_CFLAGS) $(PNG_CFLAGS)
