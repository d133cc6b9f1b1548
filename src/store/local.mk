# The level store: SQLite, linked by the program and tests/check_store.
noinst_LIBRARIES += src/store/libffstore.a
src_store_libffstore_a_SOURCES = \
	src/store/store.c src/store/store.h src/store/store_int.h \
	src/store/schema.c \
	src/store/codec.c \
	src/store/levels.c \
	src/store/replays.c \
	src/store/trajectory.c src/store/trajectory.h
src_store_libffstore_a_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
