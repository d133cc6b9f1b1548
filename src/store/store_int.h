/*
 * store_int.h - what the files of src/store share and nobody else sees: the
 * store object, SQLite error reporting, transactions, and the level codec.
 * store.c owns the connection, schema.c the migrations, codec.c the
 * level <-> row conversion, levels.c the level rows.
 */
#ifndef FF_STORE_INT_H
#define FF_STORE_INT_H

#include <sqlite3.h>

#include "store.h"

/* PRAGMA application_id of a fieldmarshal database: "FfLv". */
#define FF_STORE_APP_ID 0x46664c76

struct ff_store {
	sqlite3 *db;
	char *path;
	bool created;
	bool full;               /* opened to read only because the disk is full */
	int busy_ms;
	int depth;               /* open transactions: 1 BEGIN, then SAVEPOINTs */
	ff_store_seeder seed;    /* fills a new database (or NULL) */
	void *seed_ctx;
	char msg[512];
};

/* Sets S's message from FMT and returns ERR. */
ff_err st_msg(ff_store *s, ff_err err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Turns the SQLite result RC into a message "cannot WHAT: <why>" and an
 * ff_err (FF_E_NOMEM, or FF_E_IO for every database problem). */
ff_err st_fail(ff_store *s, int rc, const char *what);
/* Runs SQL (no results); on failure reports through st_fail(). */
ff_err st_exec(ff_store *s, const char *sql, const char *what);
/* BEGIN IMMEDIATE (takes the write lock now, waiting up to the busy
 * timeout), or a SAVEPOINT inside a transaction already open (a save
 * while a new database is seeded); COMMIT or RELEASE, which on failure
 * rolls back itself (do not call st_rollback() after it); ROLLBACK or
 * ROLLBACK TO (errors ignored: used on failure paths). */
ff_err st_begin(ff_store *s, const char *what);
ff_err st_commit(ff_store *s, const char *what);
void st_rollback(ff_store *s);
/* Fails with FF_E_INVAL and a message when NAME is not a valid name for a
 * WHAT ("level" or "replay"). */
ff_err st_check_name(ff_store *s, const char *name, const char *what);

/* Brings the schema of the open connection to FF_STORE_SCHEMA (schema.c).
 * READONLY refuses to migrate.  Sets s->created when it made the tables. */
ff_err st_schema_prepare(ff_store *s, bool readonly);

/* The canonical text header of L: the text format up to and excluding the
 * "grid" line.  Caller frees with free(); NULL when out of memory. */
char *st_header(const ff_level *l, size_t *len);
/* The cells blob of L: its costs, followed by its walls layer when it has
 * walls of a kind other than the first (then a new buffer the caller frees,
 * *OWNED; else L's own cells and *OWNED NULL).  NULL when out of memory. */
const void *st_cells(const ff_level *l, size_t *len, void **owned);
/* Rebuilds a level from a stored row.  On failure returns FF_E_NOMEM, or
 * FF_E_IO with a message naming NAME as damaged; *OUT is untouched. */
ff_err st_decode(ff_store *s, const char *name, const char *header, size_t hlen,
		 int w, int h, const void *cells, size_t clen, ff_level **out);

#endif
