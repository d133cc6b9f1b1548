/*
 * check_store.c - the SQLite level store: exact round trips of every shipped
 * level and Moving AI map, migration from schema 1, refusal of a newer
 * schema, the revision conflict between two connections, bad files (read-
 * only, corrupt, truncated, not a database, locked, full) that fail with a
 * clear message and leave stored levels intact, a save killed with
 * SIGKILL that leaves the old level or the new one, never a mix, and a new
 * database created and seeded in one transaction.
 *
 * Every case works in its own mkdtemp() directory, removed at the end.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, pwrite, ftruncate */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/level_dyn.h"
#include "core/level_text.h"
#include "store/store.h"
#include "testutil.h"

static char dir[256], db[300];

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s/ffstoreXXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/levels.db", dir);
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[600];

	chmod(dir, 0700);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static ff_store *open_db(const char *path, unsigned flags)
{
	ff_store *s = ff_store_create();

	ck_assert_ptr_nonnull(s);
	ck_assert_msg(ff_store_open(s, path, flags) == FF_OK, "%s", ff_store_errmsg(s));
	return s;
}

static ff_level *parse_text(const char *text, size_t len)
{
	ff_level *l = NULL;
	ff_diag diag;

	ck_assert_msg(ff_level_parse_any(text, len, "x", &l, &diag) == FF_OK,
		      "%d:%d: %s", diag.line, diag.col, diag.msg);
	return l;
}

/* A W x H level with random costs 1..254 and walls, named NAME. */
static ff_level *random_level(int w, int h, const char *name, uint64_t seed)
{
	ff_level *l = ff_level_create(w, h, name);

	ck_assert_ptr_nonnull(l);
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(ff_level_paint(l, i % w, i / w % h, 1 + (int)(tu_rand(&seed) % 200), NULL), FF_OK);
	for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
		int t = tu_range(&seed, 0, 20);
		l->cells[i] = t == 20 ? FF_WALL : l->meta.palette[t % l->meta.npalette].cost;
	}
	return l;
}

static void save_load_check(ff_store *s, const ff_level *l, const char *text, size_t len)
{
	ff_level *back = NULL;
	ff_store_info info;
	size_t outlen;
	char *out;

	ck_assert_msg(ff_store_save(s, l, FF_STORE_NEW, NULL) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert_msg(ff_store_load(s, l->meta.name, &back, &info) == FF_OK, "%s",
		      ff_store_errmsg(s));
	ck_assert_msg(ff_level_equal(l, back), "%s changed in the store", l->meta.name);
	ck_assert_int_eq(info.revision, 1);
	ck_assert_int_eq(info.w, l->w);
	out = ff_textlevel_format(back, &outlen);
	ck_assert_msg(outlen == len && !memcmp(out, text, len), "%s: text differs", l->meta.name);
	free(out);
	ff_level_destroy(back);
}

START_TEST(levels_round_trip)
{
	DIR *d = opendir(FF_LEVELSDIR);
	ff_store *s = open_db(db, FF_STORE_CREATE);
	struct dirent *e;
	int n = 0;

	ck_assert(ff_store_created(s));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *buf;
		ff_level *l;

		if (len < 7 || strcmp(e->d_name + len - 6, ".level"))
			continue;
		buf = tu_read(FF_LEVELSDIR, e->d_name, &len);
		l = parse_text(buf, len);
		save_load_check(s, l, buf, len);
		ff_level_destroy(l);
		free(buf);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 6);
	ff_store_destroy(s);
}
END_TEST

/* A level with a dynamic layer (it lives in the stored header text) comes
 * back with it, as the same text. */
START_TEST(dynamic_layer_round_trip)
{
	ff_store *s = open_db(db, FF_STORE_CREATE);
	ff_level *l = random_level(30, 20, "dyn", 17);
	uint64_t seed = 3;
	size_t len;
	char *text;

	for (int i = 0; i < 12; i++) {
		ff_shape r = {FF_SHAPE_RECT, tu_range(&seed, 0, 25), tu_range(&seed, 0, 15),
			      tu_range(&seed, 1, 5), tu_range(&seed, 1, 5), 0};
		ck_assert_int_eq(ff_level_dyn_set(l, &r, i % 3 ? tu_range(&seed, 1, 254) : FF_WALL,
						  NULL), FF_OK);
	}
	text = ff_textlevel_format(l, &len);
	ck_assert_ptr_nonnull(strstr(text, "\ndyn rect "));
	save_load_check(s, l, text, len);
	free(text);
	ff_level_destroy(l);
	ff_store_destroy(s);
}
END_TEST

static const char *const maps[] = {
	"arena.map", "den312d.map", "ht_chantry.map", "lak303d.map", "brc202d.map",
	"8room_000.map", "maze512-1-0.map", "random512-10-0.map", "AcrosstheCape.map",
};

START_TEST(maps_round_trip)
{
	ff_store *s = open_db(db, FF_STORE_CREATE);

	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		size_t len, tlen, mlen;
		char *buf = tu_read(FF_TESTDATA, maps[i], &len), name[64], *text, *map;
		ff_level *l = NULL, *back = NULL;
		ff_diag diag;

		snprintf(name, sizeof name, "%.*s", (int)(strlen(maps[i]) - 4), maps[i]);
		ck_assert_int_eq(ff_mapfile_parse(buf, len, name, &l, &diag), FF_OK);
		text = ff_textlevel_format(l, &tlen);
		save_load_check(s, l, text, tlen);
		ck_assert_int_eq(ff_store_load(s, name, &back, NULL), FF_OK);
		/* stored and loaded, the file's own bytes: trees stay trees */
		map = ff_mapfile_format(back, &mlen, NULL);
		ck_assert_msg(mlen == len && !memcmp(map, buf, len), "%s: .map differs", maps[i]);
		free(map);
		free(text);
		free(buf);
		ff_level_destroy(back);
		ff_level_destroy(l);
	}
	ff_store_destroy(s);
}
END_TEST

static void raw_exec(sqlite3 *raw, const char *sql);

/* A stored wall kind that names no wall terrain (here: kinds on passable
 * cells) is damage, said as such. */
START_TEST(bad_wall_kinds_refused)
{
	size_t len;
	char *buf = tu_read(FF_TESTDATA, "arena.map", &len);
	ff_store *s = open_db(db, FF_STORE_CREATE);
	ff_level *l = NULL;
	ff_diag diag;
	sqlite3 *raw;

	ck_assert_int_eq(ff_mapfile_parse(buf, len, "arena", &l, &diag), FF_OK);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_OK);
	ff_level_destroy(l);
	l = NULL;
	ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
	raw_exec(raw, "UPDATE levels SET cells = substr(cells, 1, w * h) || substr(cells, 1, w * h)");
	sqlite3_close(raw);
	ck_assert_int_eq(ff_store_load(s, "arena", &l, NULL), FF_E_IO);
	ck_assert_ptr_null(l);
	ck_assert_ptr_nonnull(strstr(ff_store_errmsg(s), "damaged"));
	ff_store_destroy(s);
	free(buf);
}
END_TEST

/* An 8192 x 8192 level with goals near its far corner, saved and loaded
 * back whole. */
START_TEST(large_level_round_trip)
{
	ff_store *s = open_db(db, FF_STORE_CREATE);
	ff_level *l = random_level(8192, 8192, "big", 17), *back = NULL;
	const ff_shape goal = {FF_SHAPE_RECT, 8000, 8100, 150, 90, 0};
	ff_store_info info;

	l->cells[(size_t)8150 * 8192 + 8050] = 1;
	ck_assert_int_eq(ff_level_goal_add(l, &goal, NULL), FF_OK);
	ck_assert_msg(ff_store_save(s, l, FF_STORE_NEW, NULL) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert_msg(ff_store_load(s, "big", &back, &info) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert(ff_level_equal(l, back));
	ck_assert_int_eq(info.w, 8192);
	ck_assert_int_eq(info.h, 8192);
	ff_level_destroy(back);
	ff_level_destroy(l);
	ff_store_destroy(s);
}
END_TEST

static void raw_exec(sqlite3 *raw, const char *sql)
{
	char *err = NULL;

	ck_assert_msg(sqlite3_exec(raw, sql, NULL, NULL, &err) == SQLITE_OK, "%s: %s", sql, err);
}

START_TEST(migrates_from_schema_1)
{
	size_t len;
	char *buf = tu_read(FF_LEVELSDIR, "maze.level", &len), *grid;
	ff_level *want = parse_text(buf, len), *got = NULL;
	sqlite3 *raw;
	sqlite3_stmt *st;
	ff_store_info info;
	ff_store *s;

	/* Schema 1 as the first release wrote it: no revision, no replays. */
	ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
	raw_exec(raw, "PRAGMA application_id = 1181109366; PRAGMA user_version = 1;"
		 "CREATE TABLE levels (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
		 " w INTEGER NOT NULL, h INTEGER NOT NULL, created INTEGER NOT NULL,"
		 " modified INTEGER NOT NULL, header TEXT NOT NULL, cells BLOB NOT NULL)");
	grid = strstr(buf, "\ngrid\n");
	ck_assert_int_eq(sqlite3_prepare_v2(raw, "INSERT INTO levels (name, w, h, created,"
					    " modified, header, cells) VALUES ('maze', ?1, ?2,"
					    " 100, 200, ?3, ?4)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int(st, 1, want->w);
	sqlite3_bind_int(st, 2, want->h);
	sqlite3_bind_text(st, 3, buf, (int)(grid + 1 - buf), SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, want->cells, want->w * want->h, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(raw);

	s = open_db(db, 0);
	ck_assert(!ff_store_created(s));
	ck_assert_int_eq(ff_store_load(s, "maze", &got, &info), FF_OK);
	ck_assert(ff_level_equal(want, got));
	ck_assert_int_eq(info.revision, 1);
	ck_assert_int_eq(info.created, 100);
	ck_assert_int_eq(info.modified, 200);
	ff_store_destroy(s);

	ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(raw, "SELECT (SELECT user_version FROM"
					    " pragma_user_version), (SELECT count(*) FROM replays)",
					    -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), FF_STORE_SCHEMA);
	sqlite3_finalize(st);
	sqlite3_close(raw);
	ff_level_destroy(want);
	ff_level_destroy(got);
	free(buf);
}
END_TEST

/* Reads the whole of PATH for before/after comparisons. */
static char *slurp(const char *path, size_t *len)
{
	const char *slash = strrchr(path, '/');
	char d[300];

	snprintf(d, sizeof d, "%.*s", (int)(slash - path), path);
	return tu_read(d, slash + 1, len);
}

START_TEST(newer_schema_refused)
{
	ff_store *s = ff_store_create();
	size_t n0, n1;
	char *before, *after;
	sqlite3 *raw;

	ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
	raw_exec(raw, "PRAGMA application_id = 1181109366; PRAGMA user_version = 99;"
		 "CREATE TABLE future (x)");
	sqlite3_close(raw);
	before = slurp(db, &n0);
	ck_assert_int_eq(ff_store_open(s, db, FF_STORE_CREATE), FF_E_VERSION);
	ck_assert_msg(strstr(ff_store_errmsg(s), "schema 99, newer than this fieldmarshal"),
		      "%s", ff_store_errmsg(s));
	after = slurp(db, &n1);
	ck_assert(n0 == n1 && !memcmp(before, after, n0));
	free(before);
	free(after);
	ff_store_destroy(s);
}
END_TEST

START_TEST(conflict_between_two_connections)
{
	ff_store *a = open_db(db, FF_STORE_CREATE), *b = open_db(db, 0);
	ff_level *l = random_level(20, 10, "shared", 1), *la = NULL, *lb = NULL, *got = NULL;
	ff_store_info ia, ib, info;
	int64_t rev;

	ck_assert_int_eq(ff_store_save(a, l, FF_STORE_NEW, &rev), FF_OK);
	ck_assert_int_eq(rev, 1);
	ck_assert_int_eq(ff_store_save(b, l, FF_STORE_NEW, NULL), FF_E_CONFLICT);
	ck_assert_int_eq(ff_store_load(a, "shared", &la, &ia), FF_OK);
	ck_assert_int_eq(ff_store_load(b, "shared", &lb, &ib), FF_OK);
	ck_assert_int_eq(ff_level_paint(lb, 1, 1, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_store_save(b, lb, ib.revision, &rev), FF_OK);
	ck_assert_int_eq(rev, 2);
	ck_assert_int_eq(ff_level_paint(la, 2, 2, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_store_save(a, la, ia.revision, NULL), FF_E_CONFLICT);
	ck_assert_msg(strstr(ff_store_errmsg(a), "changed by someone else") &&
		      strstr(ff_store_errmsg(a), "another name"), "%s", ff_store_errmsg(a));
	/* Nothing was overwritten; save-as keeps A's work. */
	ck_assert_int_eq(ff_store_load(a, "shared", &got, &info), FF_OK);
	ck_assert(ff_level_equal(got, lb));
	ck_assert_int_eq(info.revision, 2);
	ck_assert_int_eq(ff_store_save_as(a, la, "shared-mine", &rev), FF_OK);
	ck_assert_int_eq(rev, 1);
	ck_assert_str_eq(la->meta.name, "shared");
	/* Removed behind A's back: also a conflict. */
	ck_assert_int_eq(ff_store_remove(b, "shared"), FF_OK);
	ck_assert_int_eq(ff_store_save(a, lb, 2, NULL), FF_E_CONFLICT);
	ck_assert(strstr(ff_store_errmsg(a), "removed"));
	ck_assert_int_eq(ff_store_save(a, lb, FF_STORE_ANY, NULL), FF_OK);
	ff_level_destroy(l);
	ff_level_destroy(la);
	ff_level_destroy(lb);
	ff_level_destroy(got);
	ff_store_destroy(a);
	ff_store_destroy(b);
}
END_TEST

START_TEST(list_copy_rename_remove)
{
	ff_store *s = open_db(db, FF_STORE_CREATE);
	ff_level *l = random_level(8, 4, "b", 2), *got = NULL;
	ff_store_info *v = NULL, info;
	size_t n = 9;

	ck_assert_int_eq(ff_store_list(s, &v, &n), FF_OK);
	ck_assert_uint_eq(n, 0);
	free(v);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_OK);
	ck_assert_int_eq(ff_store_copy(s, "b", "a"), FF_OK);
	ck_assert_int_eq(ff_store_copy(s, "b", "a"), FF_E_CONFLICT);
	ck_assert_int_eq(ff_store_copy(s, "zz", "y"), FF_E_NOTFOUND);
	ck_assert_int_eq(ff_store_rename(s, "b", "c"), FF_OK);
	ck_assert_int_eq(ff_store_rename(s, "a", "c"), FF_E_CONFLICT);
	ck_assert_int_eq(ff_store_load(s, "c", &got, &info), FF_OK);
	ck_assert_str_eq(got->meta.name, "c");
	ck_assert_int_eq(info.revision, 2);
	ck_assert_int_eq(memcmp(got->cells, l->cells, 32), 0);
	ck_assert_int_eq(ff_store_list(s, &v, &n), FF_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0].name, "a");
	ck_assert_str_eq(v[1].name, "c");
	free(v);
	ck_assert_int_eq(ff_store_remove(s, "a"), FF_OK);
	ck_assert_int_eq(ff_store_remove(s, "a"), FF_E_NOTFOUND);
	ck_assert_str_eq(ff_store_errmsg(s), "no stored level named 'a'");
	ck_assert_int_eq(ff_store_load(s, "../etc", &got, NULL), FF_E_INVAL);
	ff_level_destroy(l);
	ff_level_destroy(got);
	ff_store_destroy(s);
}
END_TEST

/* A database holding level "keep"; returns that level. */
static ff_level *db_with_keep(void)
{
	ff_store *s = open_db(db, FF_STORE_CREATE);
	ff_level *l = random_level(64, 64, "keep", 3);

	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_OK);
	ff_store_destroy(s);
	return l;
}

static void assert_keep(ff_store *s, const ff_level *want)
{
	ff_level *got = NULL;

	ck_assert_msg(ff_store_load(s, "keep", &got, NULL) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert(ff_level_equal(got, want));
	ck_assert_int_eq(ff_store_check(s), FF_OK);
	ff_level_destroy(got);
}

START_TEST(replays_saved_listed_removed)
{
	static const char a[] = "fieldmarshal replay 1\nlevel chokepoint\nsolve\n";
	static const char b[] = "fieldmarshal replay 1\nlevel open\n";
	ff_store *s = open_db(db, FF_STORE_CREATE);
	ff_store_replay_info *v = NULL;
	size_t n = 0, len = 0;
	char *text = NULL;

	ck_assert_int_eq(ff_store_replay_save(s, "zeta", a, strlen(a), false), FF_OK);
	ck_assert_int_eq(ff_store_replay_save(s, "alpha", b, strlen(b), false), FF_OK);
	ck_assert_int_eq(ff_store_replay_save(s, "zeta", b, strlen(b), false), FF_E_CONFLICT);
	ck_assert(strstr(ff_store_errmsg(s), "exists already"));
	ck_assert_int_eq(ff_store_replay_load(s, "zeta", &text, &len), FF_OK);
	ck_assert_uint_eq(len, strlen(a));
	ck_assert_str_eq(text, a);     /* the refused save changed nothing */
	free(text);
	ck_assert_int_eq(ff_store_replay_save(s, "zeta", b, strlen(b), true), FF_OK);
	ck_assert_int_eq(ff_store_replay_list(s, &v, &n), FF_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0].name, "alpha");
	ck_assert_str_eq(v[1].name, "zeta");
	ck_assert_uint_eq(v[1].bytes, strlen(b));
	free(v);
	ck_assert_int_eq(ff_store_replay_remove(s, "alpha"), FF_OK);
	ck_assert_int_eq(ff_store_replay_remove(s, "alpha"), FF_E_NOTFOUND);
	ck_assert_int_eq(ff_store_replay_load(s, "alpha", &text, &len), FF_E_NOTFOUND);
	ck_assert_int_eq(ff_store_replay_save(s, "no/slash", a, strlen(a), false), FF_E_INVAL);
	ck_assert_msg(strstr(ff_store_errmsg(s), "bad replay name 'no/slash'"), "%s",
		      ff_store_errmsg(s));
	ff_store_destroy(s);
}
END_TEST

/* Root writes through permissions: for root, the read-only cases make
 * SQLite's open() answer EACCES to any opening for writing of a path that
 * starts with DENIED, as permissions answer a user (the unix VFS's
 * xSetSystemCall, no root needed).  Each case runs in a child of its own. */
static sqlite3_syscall_ptr real_open;
static char denied[320];

static int denying_open(const char *path, int flags, int mode)
{
	if (!strncmp(path, denied, strlen(denied)) && (flags & (O_WRONLY | O_RDWR | O_CREAT))) {
		errno = EACCES;
		return -1;
	}
	return ((int (*)(const char *, int, int))real_open)(path, flags, mode);
}

/* Makes PATH (a file) read-only, or with WHOLE_DIR the directory: chmod()
 * for a user; the emulation above for root. */
static void make_read_only(const char *path, bool whole_dir)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);

	ck_assert_int_eq(chmod(path, whole_dir ? 0555 : 0444), 0);
	if (geteuid() != 0)
		return;
	snprintf(denied, sizeof denied, "%s%s", path, whole_dir ? "/" : "");
	real_open = vfs->xGetSystemCall(vfs, "open");
	ck_assert_ptr_nonnull(real_open);
	ck_assert_int_eq(vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)denying_open),
			 SQLITE_OK);
}

START_TEST(read_only_file)
{
	ff_level *keep = db_with_keep(), *l = random_level(8, 8, "new", 4);
	ff_store *s;

	s = open_db(db, FF_STORE_READONLY);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "is read-only"), "%s", ff_store_errmsg(s));
	assert_keep(s, keep);
	ff_store_destroy(s);
	make_read_only(db, false);
	s = open_db(db, 0);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "read-only"), "%s", ff_store_errmsg(s));
	assert_keep(s, keep);
	ff_store_destroy(s);
	ff_level_destroy(l);
	ff_level_destroy(keep);
}
END_TEST

START_TEST(read_only_dir_new_db)
{
	ff_store *s = ff_store_create();

	make_read_only(dir, true);
	ck_assert_int_eq(ff_store_open(s, db, FF_STORE_CREATE), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "cannot be opened") ||
		      strstr(ff_store_errmsg(s), "read-only"), "%s", ff_store_errmsg(s));
	ff_store_destroy(s);
}
END_TEST

/* An existing database in a directory the user cannot write: SQLite cannot
 * make the WAL's -shm file there, so it is read as it stands; saves are
 * refused as read-only. */
START_TEST(read_only_dir_existing_db)
{
	ff_level *keep = db_with_keep(), *got = NULL, *l = random_level(8, 8, "new", 4);
	ff_store *s = ff_store_create();

	ck_assert_int_eq(chmod(db, 0444), 0);
	make_read_only(dir, true);
	ck_assert_msg(ff_store_open(s, db, 0) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert_msg(ff_store_load(s, "keep", &got, NULL) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert(ff_level_equal(got, keep));
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "read-only"), "%s", ff_store_errmsg(s));
	ff_level_destroy(got);
	ff_level_destroy(l);
	ff_level_destroy(keep);
	ff_store_destroy(s);
}
END_TEST

/* Overwrites LEN bytes at OFF of the database with junk, or truncates it. */
static void damage(off_t off, size_t len, bool truncate_it)
{
	int fd = open(db, O_WRONLY);
	static char junk[1 << 20];

	ck_assert_int_ge(fd, 0);
	memset(junk, 0x5a, sizeof junk);
	ck_assert_uint_le(len, sizeof junk);
	if (truncate_it)
		ck_assert_int_eq(ftruncate(fd, off), 0);
	else
		ck_assert_int_eq(pwrite(fd, junk, len, off), (ssize_t)len);
	close(fd);
}

/* Opening and reading everything must fail with a one-line message. */
static void assert_bad(const char *part)
{
	ff_store *s = ff_store_create();
	ff_store_info *v = NULL;
	ff_level *l = NULL;
	size_t n;
	ff_err err = ff_store_open(s, db, 0);

	if (!err && !(err = ff_store_list(s, &v, &n)) && !(err = ff_store_load(s, "keep", &l, NULL)))
		err = ff_store_check(s);
	ck_assert_int_ne(err, FF_OK);
	ck_assert_msg(strstr(ff_store_errmsg(s), part), "'%s' lacks '%s'", ff_store_errmsg(s), part);
	ck_assert_ptr_null(strchr(ff_store_errmsg(s), '\n'));
	free(v);
	ff_level_destroy(l);
	ff_store_destroy(s);
}

START_TEST(corrupt_file)
{
	ff_level *keep = db_with_keep();

	struct stat st;

	ck_assert_int_eq(stat(db, &st), 0);
	damage(4096, (size_t)st.st_size - 4096, false); /* all but the first page */
	assert_bad("corrupt");
	ff_level_destroy(keep);
}
END_TEST

START_TEST(truncated_file)
{
	ff_level *keep = db_with_keep();

	damage(4096 + 100, 0, true);
	assert_bad("corrupt");
	ff_level_destroy(keep);
}
END_TEST

START_TEST(not_a_database)
{
	FILE *f = fopen(db, "w");
	ff_store *s = ff_store_create();
	sqlite3 *raw;

	for (int i = 0; i < 200; i++)
		fputs("fieldmarshal level 1\nthis is text, not a database\n", f);
	fclose(f);
	assert_bad("is not a database");
	unlink(db);
	ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
	raw_exec(raw, "CREATE TABLE t (x)");
	sqlite3_close(raw);
	ck_assert_int_eq(ff_store_open(s, db, 0), FF_E_IO);
	ck_assert(strstr(ff_store_errmsg(s), "not a fieldmarshal one"));
	ff_store_destroy(s);
}
END_TEST

START_TEST(locked_by_another_writer)
{
	ff_level *keep = db_with_keep(), *l = random_level(8, 8, "new", 5);
	ff_store *s = open_db(db, 0);
	sqlite3 *raw;

	ck_assert_int_eq(sqlite3_open(db, &raw), SQLITE_OK);
	raw_exec(raw, "BEGIN IMMEDIATE");
	ff_store_set_busy_timeout(s, 50);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "locked by another process"), "%s",
		      ff_store_errmsg(s));
	ck_assert_int_eq(ff_store_remove(s, "keep"), FF_E_IO);
	assert_keep(s, keep); /* WAL: readers still read */
	raw_exec(raw, "COMMIT");
	sqlite3_close(raw);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_OK);
	ff_level_destroy(l);
	ff_level_destroy(keep);
	ff_store_destroy(s);
}
END_TEST

START_TEST(full_disk)
{
	ff_level *keep = db_with_keep(), *big = random_level(512, 512, "keep", 6);
	ff_store *s = open_db(db, 0);
	ff_store_info info;

	ck_assert_int_eq(ff_store_set_max_pages(s, 16), FF_OK);
	ck_assert_int_eq(ff_store_save(s, big, FF_STORE_ANY, NULL), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "disk is full"), "%s", ff_store_errmsg(s));
	assert_keep(s, keep);
	ck_assert_int_eq(ff_store_stat(s, "keep", &info), FF_OK);
	ck_assert_int_eq(info.revision, 1);
	ff_level_destroy(keep);
	ff_level_destroy(big);
	ff_store_destroy(s);
}
END_TEST

/* A child saving big levels A and B in turn is killed at random moments;
 * each time the database must be intact and hold exactly A or B.  The
 * moments are spread over three saves as long as one takes here (timed
 * first), counted from when the child has opened the database, so that on
 * a slow or loaded machine, or under the sanitizers, kills still land
 * before, inside and after saves; every ten rounds in which no save got
 * through, the span doubles (a loaded machine may stall the child for
 * longer than the timed save). */
START_TEST(killed_mid_save)
{
	ff_level *a = random_level(1024, 1024, "big", 10), *b = random_level(1024, 1024, "big", 11);
	ff_store *s = open_db(db, FF_STORE_CREATE);
	uint64_t seed = 12345;
	int saw_a = 0, saw_b = 0;
	struct timespec t0, t1;
	long save_us;

	ck_assert_int_eq(ff_store_save(s, a, FF_STORE_NEW, NULL), FF_OK);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(ff_store_save(s, b, FF_STORE_ANY, NULL), FF_OK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	save_us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
	save_us = save_us < 20000 ? 20000 : save_us;
	ck_assert_int_eq(ff_store_save(s, a, FF_STORE_ANY, NULL), FF_OK); /* A to begin with */
	ff_store_destroy(s);
	for (int round = 0, dry = 0; round < 30 || (!saw_b && round < 60); round++) {
		struct timespec nap = {0, 0};
		long us;
		ff_level *got = NULL;
		int ready[2];
		char byte;
		pid_t pid;

		ck_assert_int_eq(pipe(ready), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			ff_store *c = ff_store_create();
			if (!c || ff_store_open(c, db, 0) || write(ready[1], "o", 1) != 1)
				_exit(1);
			for (unsigned i = 0;; i++)
				ff_store_save(c, i & 1 ? a : b, FF_STORE_ANY, NULL);
		}
		close(ready[1]);
		ck_assert_int_eq(read(ready[0], &byte, 1), 1); /* the child is at its saves */
		close(ready[0]);
		dry = saw_b ? 0 : dry + 1;
		us = tu_range(&seed, 0, (int)(3 * save_us << (dry / 10 < 3 ? dry / 10 : 3)));
		nap.tv_sec = us / 1000000;
		nap.tv_nsec = 1000L * (us % 1000000);
		nanosleep(&nap, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		s = open_db(db, 0);
		ck_assert_msg(ff_store_check(s) == FF_OK, "%s", ff_store_errmsg(s));
		ck_assert_msg(ff_store_load(s, "big", &got, NULL) == FF_OK, "%s", ff_store_errmsg(s));
		ck_assert_msg(ff_level_equal(got, a) || ff_level_equal(got, b),
			      "round %d: the stored level is a mix", round);
		saw_a += ff_level_equal(got, a);
		saw_b += ff_level_equal(got, b);
		ff_level_destroy(got);
		ff_store_destroy(s);
	}
	ck_assert_int_gt(saw_b, 0); /* the child did get saves through */
	ff_level_destroy(a);
	ff_level_destroy(b);
}
END_TEST

/* A seeder that saves three levels, then (when *CTX says so) dies as a
 * SIGKILL would have it, or fails. */
static ff_err seed3(ff_store *s, void *ctx)
{
	const int *how = ctx;

	for (int i = 0; i < 3; i++) {
		char name[8];
		ff_level *l;
		ff_err err;

		snprintf(name, sizeof name, "seed%d", i);
		l = random_level(8, 8, name, (uint64_t)i);
		err = ff_store_save(s, l, FF_STORE_NEW, NULL);
		ff_level_destroy(l);
		if (err)
			return err;
		if (i == 1 && *how == 1)
			raise(SIGKILL);
		if (i == 1 && *how == 2)
			return FF_E_IO;
	}
	return FF_OK;
}

/* A new database is created and seeded in one transaction: killed half
 * way through the seeding, or failing there, it is left without a schema
 * and is created and seeded again by the next open (a first run killed
 * once left it with the schema and no levels, seeded never again). */
START_TEST(seeding_is_all_or_nothing)
{
	int how = 1, status;
	ff_store *s;
	ff_store_info *list = NULL;
	size_t n = 0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		ff_store *c = ff_store_create();
		ff_store_set_seeder(c, seed3, &how);
		ff_store_open(c, db, FF_STORE_CREATE);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	how = 2;
	s = ff_store_create();
	ff_store_set_seeder(s, seed3, &how);
	ck_assert_int_eq(ff_store_open(s, db, FF_STORE_CREATE), FF_E_IO);
	ck_assert_msg(strstr(ff_store_errmsg(s), "cannot fill the new database"), "%s",
		      ff_store_errmsg(s));
	how = 0;
	ck_assert_msg(ff_store_open(s, db, FF_STORE_CREATE) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert(ff_store_created(s));
	ck_assert_int_eq(ff_store_list(s, &list, &n), FF_OK);
	ck_assert_uint_eq(n, 3);
	free(list);
	ff_store_destroy(s);
	s = ff_store_create();
	how = 2;                          /* an existing database: no seeding */
	ff_store_set_seeder(s, seed3, &how);
	ck_assert_msg(ff_store_open(s, db, FF_STORE_CREATE) == FF_OK, "%s", ff_store_errmsg(s));
	ck_assert(!ff_store_created(s));
	ff_store_destroy(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, levels_round_trip);
	tcase_add_test(tc, dynamic_layer_round_trip);
	tcase_add_test(tc, maps_round_trip);
	tcase_add_test(tc, bad_wall_kinds_refused);
	tcase_add_test(tc, large_level_round_trip);
	tcase_add_test(tc, migrates_from_schema_1);
	tcase_add_test(tc, newer_schema_refused);
	tcase_add_test(tc, conflict_between_two_connections);
	tcase_add_test(tc, list_copy_rename_remove);
	tcase_add_test(tc, replays_saved_listed_removed);
	tcase_add_test(tc, read_only_file);
	tcase_add_test(tc, read_only_dir_new_db);
	tcase_add_test(tc, read_only_dir_existing_db);
	tcase_add_test(tc, corrupt_file);
	tcase_add_test(tc, truncated_file);
	tcase_add_test(tc, not_a_database);
	tcase_add_test(tc, locked_by_another_writer);
	tcase_add_test(tc, full_disk);
	tcase_add_test(tc, killed_mid_save);
	tcase_add_test(tc, seeding_is_all_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
