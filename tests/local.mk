# Check suites: one tests/check_<module>.c per module.
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DFF_TESTDATA='"$(abs_top_srcdir)/tests/data"' \
	-DFF_LEVELSDIR='"$(abs_top_srcdir)/levels"' -DFF_DOCSDIR='"$(abs_top_srcdir)/docs"'
TEST_LDADD = src/core/libffcore.la $(CHECK_LIBS) $(LIBS)
# tests/allocwrap.h: every allocation of the statically linked code counted.
WRAP_ALLOC_FLAGS = $(AM_LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc \
	-Wl,--wrap=aligned_alloc,--wrap=free,--wrap=strdup

check_PROGRAMS += tests/check_level tests/check_level_text tests/check_cmd
tests_check_level_SOURCES = tests/check_level.c tests/testutil.h tests/testlevel.h
tests_check_level_CFLAGS = $(TEST_CFLAGS)
tests_check_level_LDADD = $(TEST_LDADD)
tests_check_level_text_SOURCES = tests/check_level_text.c tests/testutil.h
tests_check_level_text_CFLAGS = $(TEST_CFLAGS)
tests_check_level_text_LDADD = $(TEST_LDADD)
tests_check_cmd_SOURCES = tests/check_cmd.c tests/testutil.h tests/testsession.h
tests_check_cmd_CFLAGS = $(TEST_CFLAGS)
tests_check_cmd_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_groups
tests_check_groups_SOURCES = tests/check_groups.c tests/testutil.h tests/testsession.h
tests_check_groups_CFLAGS = $(TEST_CFLAGS)
tests_check_groups_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_classes
tests_check_classes_SOURCES = tests/check_classes.c tests/testutil.h tests/testlevel.h \
	tests/testsession.h
tests_check_classes_CFLAGS = $(TEST_CFLAGS)
tests_check_classes_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_session tests/check_replay
tests_check_session_SOURCES = tests/check_session.c tests/testutil.h tests/testsession.h
tests_check_session_CFLAGS = $(TEST_CFLAGS)
tests_check_session_LDADD = $(TEST_LDADD)
tests_check_replay_SOURCES = tests/check_replay.c tests/testutil.h
tests_check_replay_CFLAGS = $(TEST_CFLAGS)
tests_check_replay_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_store
tests_check_store_SOURCES = tests/check_store.c tests/testutil.h
tests_check_store_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_check_store_LDADD = src/store/libffstore.a $(TEST_LDADD) $(SQLITE_LIBS)

check_PROGRAMS += tests/check_solver
tests_check_solver_SOURCES = tests/check_solver.c tests/testutil.h tests/allocwrap.h
tests_check_solver_CFLAGS = $(TEST_CFLAGS)
tests_check_solver_LDADD = $(TEST_LDADD)
# Counts allocations to prove a solve, a step and a repair make none.
tests_check_solver_LDFLAGS = $(WRAP_ALLOC_FLAGS)
# Every Moving AI scenario (23,039), not only the sample make check runs.
check-full: tests/check_solver$(EXEEXT) tests/check_hier$(EXEEXT)
	FF_CHECK_FULL=1 $(builddir)/tests/check_solver$(EXEEXT)
	FF_CHECK_FULL=1 $(builddir)/tests/check_hier$(EXEEXT)
.PHONY: check-full

check_PROGRAMS += tests/check_values
tests_check_values_SOURCES = tests/check_values.c tests/testutil.h
tests_check_values_CFLAGS = $(TEST_CFLAGS)
tests_check_values_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_level_dyn
tests_check_level_dyn_SOURCES = tests/check_level_dyn.c tests/testutil.h tests/testsession.h \
	tests/testlevel.h
tests_check_level_dyn_CFLAGS = $(TEST_CFLAGS)
tests_check_level_dyn_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_cost
tests_check_cost_SOURCES = tests/check_cost.c tests/testutil.h tests/testsession.h
tests_check_cost_CFLAGS = $(TEST_CFLAGS)
tests_check_cost_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_open
tests_check_open_SOURCES = tests/check_open.c tests/testutil.h
tests_check_open_CFLAGS = $(TEST_CFLAGS)
tests_check_open_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_los
tests_check_los_SOURCES = tests/check_los.c tests/testutil.h
tests_check_los_CFLAGS = $(TEST_CFLAGS)
tests_check_los_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_hier
tests_check_hier_SOURCES = tests/check_hier.c tests/testutil.h tests/allocwrap.h
tests_check_hier_CFLAGS = $(TEST_CFLAGS)
tests_check_hier_LDADD = $(TEST_LDADD)
# Fails each allocation of an order and a query in turn.
tests_check_hier_LDFLAGS = $(WRAP_ALLOC_FLAGS)

check_PROGRAMS += tests/check_sim
tests_check_sim_SOURCES = tests/check_sim.c tests/testutil.h tests/allocwrap.h
tests_check_sim_CFLAGS = $(TEST_CFLAGS)
tests_check_sim_LDADD = $(TEST_LDADD)
# Counts allocations to prove a tick makes none.
tests_check_sim_LDFLAGS = $(WRAP_ALLOC_FLAGS)

# Every allocation of a command, a solve, a tick, a save and a replay fails
# in turn (tests/allocwrap.h; SQLite allocates through it too).
check_PROGRAMS += tests/check_faults
tests_check_faults_SOURCES = tests/check_faults.c tests/testutil.h tests/allocwrap.h
tests_check_faults_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_check_faults_LDADD = src/store/libffstore.a $(TEST_LDADD) $(SQLITE_LIBS)
tests_check_faults_LDFLAGS = $(WRAP_ALLOC_FLAGS)

# Pictures, decoded back with libpng and parsed with libxml2.
check_PROGRAMS += tests/check_pic
tests_check_pic_SOURCES = tests/check_pic.c tests/testutil.h
tests_check_pic_CFLAGS = $(TEST_CFLAGS) $(LIBXML_CFLAGS) $(PNG_CFLAGS)
tests_check_pic_LDADD = src/pic/libffpic.a $(TEST_LDADD) $(LIBXML_LIBS) $(PNG_LIBS)

# Tiled maps in every encoding, read, written and read back.
check_PROGRAMS += tests/check_tiled
tests_check_tiled_SOURCES = tests/check_tiled.c tests/testutil.h
tests_check_tiled_CFLAGS = $(TEST_CFLAGS)
tests_check_tiled_LDADD = $(TILED_LIBS) $(TEST_LDADD)

TESTS += $(check_PROGRAMS)
EXTRA_DIST += tests/data

# Script tests get the program and the source folder from the environment.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = FIELDMARSHAL='$(abs_top_builddir)/src/fieldmarshal'; \
	srcdir='$(abs_top_srcdir)'; PNGDUMP='$(abs_top_builddir)/tests/pngdump'; \
	top_builddir='$(abs_top_builddir)'; export FIELDMARSHAL srcdir PNGDUMP top_builddir;
TESTS += tests/replays.sh tests/cli.sh tests/reports.sh tests/pictures.sh \
	tests/formats.sh tests/faults.sh tests/sim_cli.sh tests/library.sh tests/completion.sh \
	tests/layers.sh
EXTRA_DIST += tests/replays.sh tests/replays tests/cli.sh tests/reports.sh \
	tests/pictures.sh tests/formats.sh tests/faults.sh tests/sim_cli.sh tests/library.sh \
	tests/embed-out.sh tests/completion.sh tests/layers.sh
# library.sh runs the example of docs/embedding.md built against the library.
EXTRA_PROGRAMS += tests/embed
nodist_tests_embed_SOURCES = tests/embed.c
tests_embed_CPPFLAGS = -I$(top_srcdir)/src/lib
tests_embed_LDADD = src/lib/libfieldmarshal.la
CLEANFILES += tests/embed$(EXEEXT)
tests/library.log: tests/embed$(EXEEXT)
# pictures.sh reads PNGs through libpng with this helper (not a test itself).
EXTRA_PROGRAMS += tests/pngdump
tests_pngdump_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS)
tests_pngdump_LDADD = $(PNG_LIBS)
CLEANFILES += tests/pngdump$(EXEEXT)
tests/pictures.log: tests/pngdump$(EXEEXT)

# The program with faults on request (tests/faultwrap.c), for
# tests/faults.sh: the same objects, the allocator and the file writes
# wrapped.  Built for that test only.
EXTRA_PROGRAMS += tests/fieldmarshal-faults
CLEANFILES += tests/fieldmarshal-faults$(EXEEXT)
tests_fieldmarshal_faults_SOURCES = $(src_fieldmarshal_SOURCES) tests/faultwrap.c \
	tests/allocwrap.h
tests_fieldmarshal_faults_CFLAGS = $(src_fieldmarshal_CFLAGS)
tests_fieldmarshal_faults_LDADD = $(src_fieldmarshal_LDADD)
tests_fieldmarshal_faults_LDFLAGS = $(WRAP_ALLOC_FLAGS) \
	-Wl,--wrap=write,--wrap=fsync,--wrap=rename
tests/faults.log: tests/fieldmarshal-faults$(EXEEXT)

# The editor: its controller driven by synthetic keys with no terminal, and
# the real program driven through tmux (tests/tui/*.sh skip without tmux).
check_PROGRAMS += tests/check_tui tests/check_view tests/check_crowd_view
tests_check_tui_SOURCES = tests/check_tui.c tests/testutil.h tests/testtui.h
tests_check_tui_CFLAGS = $(TEST_CFLAGS)
tests_check_tui_LDADD = src/tui/libfftui.a $(TEST_LDADD) $(NCURSES_LIBS)
tests_check_view_SOURCES = tests/check_view.c tests/testutil.h tests/testtui.h
tests_check_view_CFLAGS = $(TEST_CFLAGS)
tests_check_view_LDADD = src/tui/libfftui.a $(TEST_LDADD) $(NCURSES_LIBS)
tests_check_crowd_view_SOURCES = tests/check_crowd_view.c tests/testutil.h tests/testtui.h
tests_check_crowd_view_CFLAGS = $(TEST_CFLAGS)
tests_check_crowd_view_LDADD = src/tui/libfftui.a $(TEST_LDADD) $(NCURSES_LIBS)
TUI_TESTS = tests/tui/edit.sh tests/tui/solve.sh tests/tui/resize.sh \
	tests/tui/sim.sh tests/tui/record.sh tests/tui/split.sh \
	tests/tui/store.sh tests/tui/signals.sh tests/tui/teaching.sh tests/tui/picture.sh \
	tests/tui/crowd.sh
TESTS += $(TUI_TESTS)
tests/tui/picture.log: tests/pngdump$(EXEEXT)
EXTRA_DIST += $(TUI_TESTS) tests/tui/lib.sh

# The crowd against published experiments (docs/simulation.md,
# "Validation"): 'make validate' prints the full table; make check runs the
# fast version.
check_PROGRAMS += tests/validation/validate
tests_validation_validate_SOURCES = tests/validation/validate.c
tests_validation_validate_CFLAGS = $(AM_CFLAGS)
tests_validation_validate_LDADD = src/core/libffcore.la $(LIBS)
TESTS += tests/validation/fast.sh
EXTRA_DIST += tests/validation/fast.sh
validate: tests/validation/validate$(EXEEXT)
	$(builddir)/tests/validation/validate
.PHONY: validate
