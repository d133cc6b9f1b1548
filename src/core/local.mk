# Core library: pure C (libc, libm), no I/O.  The program and the tests link
# it; libfieldmarshal wraps it.  A libtool convenience library, built once as
# position-independent code ('-shared' tells libtool's compile step to skip
# the second, non-PIC build).
noinst_LTLIBRARIES += src/core/libffcore.la
src_core_libffcore_la_CPPFLAGS = $(AM_CPPFLAGS) -shared
# libfieldmarshal exports only its fm_ wrappers (src/lib/local.mk)
src_core_libffcore_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
src_core_libffcore_la_SOURCES = \
	src/core/bigmem.c src/core/bigmem.h \
	src/core/buf.c src/core/buf.h \
	src/core/err.c src/core/err.h \
	src/core/level.c src/core/level.h \
	src/core/level_patch.c src/core/level_patch.h \
	src/core/level_dyn.c src/core/level_dyn.h \
	src/core/level_text.c src/core/level_text.h \
	src/core/level_map.c \
	src/core/session.c src/core/session.h \
	src/core/cmd.c src/core/cmd.h \
	src/core/hash.c src/core/hash.h \
	src/core/replay.c src/core/replay.h \
	src/core/glyph.c src/core/glyph.h
# Solver (integration and flow fields) and level generators.
src_core_libffcore_la_SOURCES += \
	src/core/cost.c src/core/cost.h \
	src/core/solver.c src/core/solver.h src/core/solver_int.h \
	src/core/solver_bucketq.c src/core/solver_dijkstra.c src/core/solver_fmm.c src/core/solver_repair.c \
	src/core/solver_open.c \
	src/core/solver_par.c src/core/solver_par.h \
	src/core/solver_tile.c src/core/solver_tile.h \
	src/core/solver_los.c src/core/solver_los.h \
	src/core/solver_hier.c src/core/solver_hier.h src/core/solver_hier_int.h \
	src/core/solver_hier_graph.c src/core/solver_hier_search.c src/core/solver_hier_los.c \
	src/core/level_gen.c src/core/level_gen.h
# Crowd simulation: PRNG, the groups' fields, neighbour grid, agents.
src_core_libffcore_la_SOURCES += \
	src/core/rng.c src/core/rng.h \
	src/core/fields.c src/core/fields.h \
	src/core/sim_spatial.c src/core/sim_spatial.h \
	src/core/sim.c src/core/sim.h src/core/sim_impl.h \
	src/core/sim_level.c src/core/sim_step.c src/core/sim_par.c \
	src/core/thread.c src/core/thread.h \
	src/core/sim_density.c src/core/sim_spawn.c src/core/sim_route.c \
	src/core/sim_order.c
