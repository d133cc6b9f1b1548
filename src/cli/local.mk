# The fieldmarshal program: subcommand table and one file per subcommand.
bin_PROGRAMS += src/fieldmarshal
src_fieldmarshal_SOURCES = \
	src/cli/main.c src/cli/cli.h \
	src/cli/util.c src/cli/util.h src/cli/scratch.c src/cli/scratch.h \
	src/cli/json.c src/cli/json.h \
	src/cli/levelfile.c src/cli/levelfile.h \
	src/cli/picture.c src/cli/picture.h \
	src/cli/cmd_replay.c src/cli/cmd_replays.c \
	src/cli/replay_out.c src/cli/replay_out.h src/cli/replay_tap.c \
	src/cli/replay_junit.c \
	src/cli/cmd_run.c \
	src/cli/cmd_show.c
# Crowd simulation subcommand and its benchmark.
src_fieldmarshal_SOURCES += src/cli/cmd_sim.c src/cli/bench_sim.c src/cli/bench_sim.h
# The level database: --db, seeding, and the levels/import/export commands.
src_fieldmarshal_SOURCES += src/cli/db.c src/cli/db.h \
	src/cli/cmd_levels.c src/cli/cmd_import.c \
	src/cli/bench_store.c src/cli/bench_store.h
# Solver subcommands.
src_fieldmarshal_SOURCES += src/cli/cmd_solve.c src/cli/cmd_bench.c \
	src/cli/benchutil.c src/cli/benchutil.h src/cli/bench_hier.c src/cli/bench_hier.h
src_fieldmarshal_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS) $(SQLITE_CFLAGS) $(JANSSON_CFLAGS) \
	$(LIBXML_CFLAGS) $(PNG_CFLAGS)
src_fieldmarshal_LDADD = src/store/libffstore.a src/pic/libffpic.a $(TILED_LIBS) \
	src/core/libffcore.la $(NCURSES_LIBS) $(SQLITE_LIBS) \
	$(JANSSON_LIBS) $(LIBXML_LIBS) $(PNG_LIBS) $(LIBS)
# The editor ('edit', and no arguments on a terminal).  libfftui needs core,
# hence core again after it.
src_fieldmarshal_SOURCES += src/cli/cmd_edit.c
src_fieldmarshal_LDADD += src/tui/libfftui.a src/core/libffcore.la $(NCURSES_LIBS)
src_fieldmarshal_SOURCES += src/cli/bench_tui.c src/cli/bench_tui.h
