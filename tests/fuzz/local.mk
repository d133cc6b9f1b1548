# Fuzz targets (tests/fuzz/fuzz.h): the text level and .map parsers, the
# Tiled map reader, the replay runner and command sequences.  In every build each one is also a
# test that feeds it its corpus, tests/fuzz/corpus/NAME/ (seeds and every
# crash found), through tests/fuzz/run_corpus.c.
FUZZ_TARGETS = level map tiled replay cmds
FUZZ_TESTS = tests/fuzz/fuzz_level tests/fuzz/fuzz_map tests/fuzz/fuzz_tiled \
	tests/fuzz/fuzz_replay tests/fuzz/fuzz_cmds
check_PROGRAMS += $(FUZZ_TESTS)
FUZZ_TEST_SOURCES = tests/fuzz/run_corpus.c tests/fuzz/fuzz.h
FUZZ_TEST_LDADD = src/core/libffcore.la $(LIBS)
FUZZ_CORPUS = $(abs_top_srcdir)/tests/fuzz/corpus
tests_fuzz_fuzz_level_SOURCES = tests/fuzz/fuzz_level.c $(FUZZ_TEST_SOURCES)
tests_fuzz_fuzz_level_CFLAGS = $(AM_CFLAGS) -DFF_FUZZ_CORPUS='"$(FUZZ_CORPUS)/level"'
tests_fuzz_fuzz_level_LDADD = $(FUZZ_TEST_LDADD)
tests_fuzz_fuzz_map_SOURCES = tests/fuzz/fuzz_map.c $(FUZZ_TEST_SOURCES)
tests_fuzz_fuzz_map_CFLAGS = $(AM_CFLAGS) -DFF_FUZZ_CORPUS='"$(FUZZ_CORPUS)/map"'
tests_fuzz_fuzz_map_LDADD = $(FUZZ_TEST_LDADD)
tests_fuzz_fuzz_tiled_SOURCES = tests/fuzz/fuzz_tiled.c $(FUZZ_TEST_SOURCES)
tests_fuzz_fuzz_tiled_CFLAGS = $(AM_CFLAGS) -DFF_FUZZ_CORPUS='"$(FUZZ_CORPUS)/tiled"'
tests_fuzz_fuzz_tiled_LDADD = $(TILED_LIBS) $(FUZZ_TEST_LDADD)
tests_fuzz_fuzz_replay_SOURCES = tests/fuzz/fuzz_replay.c $(FUZZ_TEST_SOURCES)
tests_fuzz_fuzz_replay_CFLAGS = $(AM_CFLAGS) -DFF_FUZZ_CORPUS='"$(FUZZ_CORPUS)/replay"'
tests_fuzz_fuzz_replay_LDADD = $(FUZZ_TEST_LDADD)
tests_fuzz_fuzz_cmds_SOURCES = tests/fuzz/fuzz_cmds.c $(FUZZ_TEST_SOURCES)
tests_fuzz_fuzz_cmds_CFLAGS = $(AM_CFLAGS) -DFF_FUZZ_CORPUS='"$(FUZZ_CORPUS)/cmds"'
tests_fuzz_fuzz_cmds_LDADD = $(FUZZ_TEST_LDADD)
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/tiled.dict

# 'make fuzz': each target built with $(FUZZ_CC) (clang), libFuzzer, ASan
# and UBSan in tests/fuzz/build/, then run FUZZ_TIME seconds (one job) from
# its corpus, new inputs kept in tests/fuzz/build/corpus-NAME/.  A crash,
# a leak or a failed check stops it with the input in
# tests/fuzz/build/NAME-crash-*: add that file to the corpus with the fix.
# The Tiled target also links src/tiled and its libraries, and takes longer
# inputs (its seeds are XML and JSON exports of the shipped levels).  A
# target with a tests/fuzz/NAME.dict gets it as its libFuzzer dictionary.
FUZZ_TIME = 60
FUZZ_MAX_LEN = 4096
FUZZ_TILED_MAX_LEN = 12288
FUZZ_FLAGS = -std=c11 -g -O1 -ffp-contract=off -pthread -fno-sanitize-recover=all \
	-I$(top_builddir) -I$(top_srcdir)/src -I$(top_srcdir)/tests/fuzz
FUZZ_LIB_CFLAGS = $(LIBXML_CFLAGS) $(JANSSON_CFLAGS) $(NETTLE_CFLAGS) $(ZLIB_CFLAGS) \
	$(ZSTD_CFLAGS)
FUZZ_TILED_LIBS = $(LIBXML_LIBS) $(JANSSON_LIBS) $(NETTLE_LIBS) $(ZLIB_LIBS) $(ZSTD_LIBS)
FUZZ_DIR = tests/fuzz/build
fuzz:
	@if test -z "$(FUZZ_CC)"; then \
	  echo "make fuzz: needs clang with libFuzzer (apt-get install clang), then ./configure" >&2; \
	  exit 1; fi
	@mkdir -p $(FUZZ_DIR)/obj
	@objs=; tiled=; \
	for f in $(src_core_libffcore_la_SOURCES) $(src_tiled_libfftiled_a_SOURCES); do \
	  case $$f in *.c) ;; *) continue ;; esac; \
	  o=$(FUZZ_DIR)/obj/`basename $$f .c`.o; \
	  case $$f in src/tiled/*) tiled="$$tiled $$o" ;; *) objs="$$objs $$o" ;; esac; \
	  test $$o -nt $(srcdir)/$$f && \
	    test -z "`find $(srcdir)/src/core $(srcdir)/src/tiled -name '*.h' -newer $$o`" || \
	    { echo "  FUZZCC   $$f"; \
	    $(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_LIB_CFLAGS) \
	      -fsanitize=fuzzer-no-link,address,undefined -c $(srcdir)/$$f -o $$o || exit 1; }; \
	done; \
	for t in $(FUZZ_TARGETS); do \
	  case $$t in tiled) more="$$tiled $(FUZZ_TILED_LIBS)" ;; *) more= ;; esac; \
	  echo "  FUZZLD   fuzz_$$t"; \
	  $(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined \
	    $(srcdir)/tests/fuzz/fuzz_$$t.c $$objs $$more -lm -o $(FUZZ_DIR)/fuzz_$$t || exit 1; \
	done
	@for t in $(FUZZ_TARGETS); do \
	  case $$t in tiled) len=$(FUZZ_TILED_MAX_LEN) ;; *) len=$(FUZZ_MAX_LEN) ;; esac; \
	  dict=; test ! -f $(srcdir)/tests/fuzz/$$t.dict || dict=-dict=$(srcdir)/tests/fuzz/$$t.dict; \
	  mkdir -p $(FUZZ_DIR)/corpus-$$t; \
	  echo "  FUZZ     $$t, $(FUZZ_TIME) s"; \
	  $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_TIME) -max_len=$$len \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/$$t- $$dict \
	    $(FUZZ_DIR)/corpus-$$t $(srcdir)/tests/fuzz/corpus/$$t \
	    > $(FUZZ_DIR)/$$t.log 2>&1 || { tail -n 40 $(FUZZ_DIR)/$$t.log; exit 1; }; \
	  sed -n 's/^stat::number_of_executed_units: */    runs: /p; s/^stat::peak_rss_mb: */    peak MB: /p' \
	    $(FUZZ_DIR)/$$t.log; \
	  grep -o 'cov: [0-9]* ft: [0-9]*' $(FUZZ_DIR)/$$t.log | tail -n 1 | sed 's/^/    /'; \
	done
clean-local: clean-fuzz
clean-fuzz:
	rm -rf $(FUZZ_DIR)
.PHONY: fuzz clean-fuzz
