/*
 * store.c - the store object: opening and closing the SQLite connection,
 * turning SQLite result codes into one-line messages, and transactions.
 *
 * The connection runs in WAL mode (readers never block the single writer)
 * with synchronous=NORMAL: a crash of the program never loses a committed
 * save, and a power cut at worst loses the last few, never older levels.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store_int.h"

ff_store *ff_store_create(void)
{
	ff_store *s = calloc(1, sizeof *s);

	if (s)
		s->busy_ms = 3000;
	return s;
}

void ff_store_close(ff_store *s)
{
	if (!s)
		return;
	sqlite3_close_v2(s->db);        /* NULL when SQLite had no memory for it */
	s->db = NULL;
	s->depth = 0;
	free(s->path);
	s->path = NULL;
}

void ff_store_destroy(ff_store *s)
{
	if (!s)
		return;
	ff_store_close(s);
	free(s);
}

const char *ff_store_errmsg(const ff_store *s)
{
	return s->msg;
}

bool ff_store_created(const ff_store *s)
{
	return s->created;
}

void ff_store_set_busy_timeout(ff_store *s, int ms)
{
	s->busy_ms = ms < 0 ? 0 : ms;
	if (s->db)
		sqlite3_busy_timeout(s->db, s->busy_ms);
}

ff_err ff_store_set_max_pages(ff_store *s, long pages)
{
	char sql[64];

	if (!s->db || pages < 1)
		return st_msg(s, FF_E_INVAL, "cannot limit the database: %s",
			      s->db ? "bad page count" : "not open");
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %ld", pages);
	return st_exec(s, sql, "limit the database size");
}

ff_err st_msg(ff_store *s, ff_err err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof s->msg, fmt, ap);
	va_end(ap);
	ff_escape_msg(s->msg, sizeof s->msg);
	return err;
}

/* Why an operation failed, worded after the file name. */
static const char *why(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB: return "is not a database";
	case SQLITE_CORRUPT: return "is corrupt (database disk image is malformed)";
	case SQLITE_READONLY: return "is read-only";
	case SQLITE_CANTOPEN: return "cannot be opened";
	case SQLITE_FULL: return "cannot grow: the disk is full (free some space on it, then "
				  "try again: even removing a level needs a little)";
	case SQLITE_BUSY:
	case SQLITE_LOCKED: return "is locked by another process; try again later";
	case SQLITE_PERM:
	case SQLITE_AUTH: return "is not accessible: permission denied";
	default: return NULL;
	}
}

ff_err st_fail(ff_store *s, int rc, const char *what)
{
	const char *w = why(rc);
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;

	if ((rc & 0xff) == SQLITE_NOMEM)
		return st_msg(s, FF_E_NOMEM, "cannot %s: out of memory", what);
	if (((rc & 0xff) == SQLITE_IOERR && sys == ENOSPC) ||
	    ((rc & 0xff) == SQLITE_READONLY && s->full))
		w = why(SQLITE_FULL);
	if (w && (rc & 0xff) == SQLITE_CANTOPEN && sys)
		return st_msg(s, FF_E_IO, "cannot %s: '%s' %s: %s", what,
			      s->path ? s->path : "database", w, strerror(sys));
	if (w)
		return st_msg(s, FF_E_IO, "cannot %s: '%s' %s", what,
			      s->path ? s->path : "database", w);
	return st_msg(s, FF_E_IO, "cannot %s: %s", what,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
}

ff_err st_exec(ff_store *s, const char *sql, const char *what)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? FF_OK : st_fail(s, rc, what);
}

ff_err st_begin(ff_store *s, const char *what)
{
	ff_err err = st_exec(s, s->depth ? "SAVEPOINT ff" : "BEGIN IMMEDIATE", what);

	if (!err)
		s->depth++;
	return err;
}

ff_err st_commit(ff_store *s, const char *what)
{
	ff_err err = st_exec(s, s->depth > 1 ? "RELEASE ff" : "COMMIT", what);

	if (err)
		st_rollback(s);
	else if (s->depth > 0)
		s->depth--;
	return err;
}

void st_rollback(ff_store *s)
{
	if (s->depth > 1)
		sqlite3_exec(s->db, "ROLLBACK TO ff; RELEASE ff", NULL, NULL, NULL);
	else if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	if (s->depth > 0)
		s->depth--;
}

void ff_store_set_seeder(ff_store *s, ff_store_seeder fn, void *ctx)
{
	s->seed = fn;
	s->seed_ctx = ctx;
}

ff_err st_check_name(ff_store *s, const char *name, const char *what)
{
	if (name && ff_level_name_ok(name))
		return FF_OK;
	return st_msg(s, FF_E_INVAL, "bad %s name '%s' (1 to %d of A-Z a-z 0-9 _ . -)", what,
		      name ? name : "", FF_NAME_MAX - 1);
}

/* Opens the connection itself; the schema is checked by the caller. */
static ff_err connect(ff_store *s, const char *path, unsigned flags)
{
	int oflags = flags & FF_STORE_READONLY ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	struct stat st;
	int rc;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return st_msg(s, FF_E_IO, "cannot open '%s': not a regular file", path);
	if (!(flags & FF_STORE_CREATE) && stat(path, &st) != 0)
		return st_msg(s, FF_E_IO, "cannot open '%s': %s", path, strerror(errno));
	if ((flags & FF_STORE_CREATE) && !(flags & FF_STORE_READONLY))
		oflags |= SQLITE_OPEN_CREATE;
	if (!(s->path = strdup(path)))
		return st_msg(s, FF_E_NOMEM, "cannot open '%s': out of memory", path);
	rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
	if (rc != SQLITE_OK)
		return st_fail(s, rc, "open the database");
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, s->busy_ms);
	return FF_OK;
}

/* True when the last failure on S came from the files SQLite keeps beside
 * a WAL database (-shm, -wal), which a read-only directory refuses. */
static bool cannot_write_beside(const ff_store *s)
{
	const int x = s->db ? sqlite3_extended_errcode(s->db) : SQLITE_OK;

	return x == SQLITE_READONLY_CANTINIT || x == SQLITE_READONLY_DIRECTORY ||
	       x == SQLITE_READONLY_RECOVERY || (x & 0xff) == SQLITE_CANTOPEN;
}

/* True when the last failure on S was a full disk: on a new -shm file,
 * whose pages a WAL reader must write before it reads. */
static bool disk_full(const ff_store *s)
{
	const int x = s->db ? sqlite3_extended_errcode(s->db) : SQLITE_OK;

	return (x & 0xff) == SQLITE_FULL ||
	       ((x & 0xff) == SQLITE_IOERR && sqlite3_system_errno(s->db) == ENOSPC);
}

/* True when PATH's write-ahead log is missing or empty: every committed
 * change is in PATH itself, so an immutable read of it misses nothing. */
static bool log_empty(const char *path)
{
	size_t n = strlen(path);
	char *wal = malloc(n + 5);
	struct stat st;
	bool empty;

	if (!wal)
		return false;
	memcpy(wal, path, n);
	memcpy(wal + n, "-wal", 5);
	empty = stat(wal, &st) != 0 ? errno == ENOENT : st.st_size == 0;
	free(wal);
	return empty;
}

/* Opens PATH read-only and immutable: read as it stands on disk, without
 * the -shm file a WAL reader otherwise needs (and would have to create). */
static ff_err connect_immutable(ff_store *s, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), j = 0;
	char *uri = malloc(3 * n + 32);
	int rc;

	if (!uri || !(s->path = strdup(path))) {
		free(uri);
		return st_msg(s, FF_E_NOMEM, "cannot open '%s': out of memory", path);
	}
	j += (size_t)sprintf(uri, "file:");
	for (size_t i = 0; i < n; i++) {
		const unsigned char c = (unsigned char)path[i];
		if (c == '?' || c == '#' || c == '%')
			uri[j++] = '%', uri[j++] = hex[c >> 4], uri[j++] = hex[c & 15];
		else
			uri[j++] = (char)c;
	}
	strcpy(uri + j, "?immutable=1");
	rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return st_fail(s, rc, "open the database");
	sqlite3_extended_result_codes(s->db, 1);
	return FF_OK;
}

ff_err ff_store_open(ff_store *s, const char *path, unsigned flags)
{
	struct stat st;
	ff_err err;

	if (!path || !*path)
		return st_msg(s, FF_E_INVAL, "cannot open the database: no file name");
	ff_store_close(s);
	s->created = false;
	s->full = false;
	s->msg[0] = '\0';
	err = connect(s, path, flags);
	if (!err)
		err = st_schema_prepare(s, flags & FF_STORE_READONLY);
	if (err && disk_full(s) && log_empty(path) && stat(path, &st) == 0 && st.st_size > 0)
		s->full = true;
	if (err && (s->full || cannot_write_beside(s)) && stat(path, &st) == 0 &&
	    st.st_size > 0) {
		/* an existing database in a directory we cannot write, or on a
		 * full disk: read it (every change refused, saying why) */
		ff_store_close(s);
		flags |= FF_STORE_READONLY;
		if (!(err = connect_immutable(s, path)))
			err = st_schema_prepare(s, true);
	}
	if (err)
		goto fail;
	if (!(flags & FF_STORE_READONLY) && !sqlite3_db_readonly(s->db, "main") &&
	    ((err = st_exec(s, "PRAGMA journal_mode = WAL", "switch to WAL mode")) ||
	     (err = st_exec(s, "PRAGMA synchronous = NORMAL", "set synchronous mode"))))
		goto fail;
	s->msg[0] = '\0';
	return FF_OK;
fail:
	ff_store_close(s);
	return err;
}

ff_err ff_store_check(ff_store *s)
{
	sqlite3_stmt *st = NULL;
	ff_err err = FF_OK;
	int rc;

	if (!s->db)
		return st_msg(s, FF_E_STATE, "cannot check the database: not open");
	rc = sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);
		if (!r || strcmp(r, "ok"))
			err = st_msg(s, FF_E_IO, "'%s' is damaged: %s", s->path, r ? r : "?");
	} else {
		err = st_fail(s, rc, "check the database");
	}
	sqlite3_finalize(st);
	if (!err)
		s->msg[0] = '\0';
	return err;
}
