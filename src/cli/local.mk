# The fieldmarshal program: subcommand table and one file per subcommand.
bin_PROGRAMS += src/fieldmarshal
src_fieldmarshal_SOURCES = \
	src/cli/main.c src/cli/cli.h \
	src/cli/util.c src/cli/util.h \
	src/cli/cmd_run.c \
	src/cli/cmd_show.c
src_fieldmarshal_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS) $(SQLITE_CFLAGS)
src_fieldmarshal_LDADD = src/core/libffcore.a $(NCURSES_LIBS) $(SQLITE_LIBS) $(LIBS)
