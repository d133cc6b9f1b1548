# Core library: pure C (libc, libm), no I/O.  Tests link against it.
noinst_LIBRARIES += src/core/libffcore.a
src_core_libffcore_a_SOURCES = \
	src/core/buf.c src/core/buf.h \
	src/core/err.c src/core/err.h \
	src/core/level.c src/core/level.h \
	src/core/patch.c src/core/patch.h \
	src/core/textlevel.c src/core/textlevel.h \
	src/core/mapfile.c \
	src/core/session.c src/core/session.h \
	src/core/cmd.c src/core/cmd.h \
	src/core/hash.c src/core/hash.h \
	src/core/replay.c src/core/replay.h
# Solver (integration and flow fields) and level generators.
src_core_libffcore_a_SOURCES += \
	src/core/solver.c src/core/solver.h src/core/solver_int.h \
	src/core/bucketq.c src/core/dijkstra.c src/core/fmm.c src/core/repair.c \
	src/core/par.c src/core/par.h \
	src/core/gen.c src/core/gen.h
# Crowd simulation: PRNG, neighbour grid, agents.
src_core_libffcore_a_SOURCES += \
	src/core/rng.c src/core/rng.h \
	src/core/spatial.c src/core/spatial.h \
	src/core/sim.c src/core/sim.h src/core/sim_impl.h \
	src/core/sim_level.c src/core/sim_step.c
