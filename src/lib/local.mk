# libfieldmarshal: the level, solver and crowd for other programs (shared
# and static), its one public header and its pkg-config file.  Only the fm_
# names are exported: the library is built with hidden visibility (and so
# is the core it wraps) and its exports are limited to ^fm_.
lib_LTLIBRARIES = src/lib/libfieldmarshal.la
include_HEADERS = src/lib/fieldmarshal.h
src_lib_libfieldmarshal_la_SOURCES = src/lib/api.c src/lib/api_sim.c src/lib/lib.h
src_lib_libfieldmarshal_la_CPPFLAGS = $(AM_CPPFLAGS) -DFM_BUILDING
src_lib_libfieldmarshal_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
src_lib_libfieldmarshal_la_LIBADD = src/core/libffcore.la $(LIBS)
src_lib_libfieldmarshal_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^fm_'
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = src/lib/fieldmarshal.pc
EXTRA_DIST += src/lib/fieldmarshal.pc.in

# The example of docs/embedding.md, cut from the page, so that the page is
# what the tests build: against the built library by 'make check'
# (tests/library.sh), against the installed one by 'make installcheck' (and
# so by 'make distcheck'), with pkg-config.
EMBED_CUT = sed -n '/^```c$$/,/^```$$/p' $(top_srcdir)/docs/embedding.md | sed '1d;$$d'
tests/embed.c: $(top_srcdir)/docs/embedding.md
	$(AM_V_GEN)$(MKDIR_P) tests && $(EMBED_CUT) > $@
CLEANFILES += tests/embed.c
installcheck-local:
	@d=$$(mktemp -d) && $(EMBED_CUT) > "$$d/embed.c" && \
	PKG_CONFIG_PATH='$(libdir)/pkgconfig' && export PKG_CONFIG_PATH && \
	echo "  CC       embed.c against the installed libfieldmarshal" && \
	$(CC) -o "$$d/embed" "$$d/embed.c" $$($(PKG_CONFIG) --cflags --libs fieldmarshal) && \
	LD_LIBRARY_PATH='$(libdir)' "$$d/embed" > "$$d/out" && \
	$(SHELL) $(top_srcdir)/tests/embed-out.sh "$$d/out"; rc=$$?; rm -rf "$$d"; exit $$rc
