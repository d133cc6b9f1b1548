/*
 * store.h - many levels (and later replays) in one SQLite database.
 *
 * A level is stored as one row: its canonical text header (everything the
 * text format writes above "grid": note, name, size, palette, parameters,
 * goals, spawns) plus its cells as one BLOB of w * h bytes, so a level read
 * back is ff_level_equal() to the one saved and formats to the same text.
 * docs/store.md describes the schema and its versions.
 *
 * Invariants:
 *  - every mutation is one transaction: a crash, a full disk or a lock
 *    leaves the database holding the old state or the new, never a mix;
 *  - each level has a revision, 1 when created and +1 on every change;
 *    ff_store_save() takes the revision the caller loaded and refuses with
 *    FF_E_CONFLICT when it has changed since (optimistic concurrency);
 *  - a database from a newer schema is refused and never written.
 *
 * Every fallible function returns ff_err and, on failure, leaves a one-line
 * message (lower case, no full stop) readable with ff_store_errmsg().
 * Errors: FF_E_IO (cannot open, read-only, full disk, locked, corrupt, not a
 * database), FF_E_VERSION (newer schema), FF_E_NOTFOUND, FF_E_CONFLICT,
 * FF_E_INVAL (bad name or argument), FF_E_NOMEM.
 */
#ifndef FF_STORE_H
#define FF_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/level.h"

typedef struct ff_store ff_store;

/* The schema version this build writes (PRAGMA user_version). */
#define FF_STORE_SCHEMA 2

/* ff_store_open() flags. */
enum {
	FF_STORE_CREATE = 1 << 0,   /* create the file when it does not exist */
	FF_STORE_READONLY = 1 << 1, /* never write (no migration either) */
};

/* Revisions ff_store_save() accepts besides one that was loaded. */
#define FF_STORE_NEW ((int64_t)0)   /* the name must not exist yet */
#define FF_STORE_ANY ((int64_t)-1)  /* overwrite whatever is stored */

typedef struct ff_store_info {
	char name[FF_NAME_MAX];
	int w, h;
	int64_t revision;
	int64_t created, modified;  /* seconds since the epoch, UTC */
} ff_store_info;

/* --- lifecycle --------------------------------------------------------- */

/* Returns a closed store, or NULL when out of memory.  Caller frees with
 * ff_store_destroy(). */
ff_store *ff_store_create(void);
/* Closes and frees S; NULL is a no-op. */
void ff_store_destroy(ff_store *s);
/* Fills a database that ff_store_open() has just created, inside the
 * transaction that creates it, with ff_store_save() and the like: a new
 * database appears with the schema and all that the seeder saved, or not
 * at all (a process killed half way leaves an empty file, created and
 * seeded again next time).  An error fails the open. */
typedef ff_err (*ff_store_seeder)(ff_store *s, void *ctx);
/* Sets the seeder ff_store_open() calls on a new database (NULL: none). */
void ff_store_set_seeder(ff_store *s, ff_store_seeder fn, void *ctx);
/* Opens the database at PATH (borrowed), creating it (with FF_STORE_CREATE)
 * and migrating an older schema forward in one transaction.  Sets WAL mode
 * and the busy timeout.  On failure S stays closed, the file is untouched
 * (beyond what SQLite itself does to open it) and the message says why. */
ff_err ff_store_open(ff_store *s, const char *path, unsigned flags);
/* Closes the database; S can be opened again.  Closed stores are a no-op. */
void ff_store_close(ff_store *s);
/* The last error message, or "" when the last call succeeded; borrowed,
 * valid until the next call on S. */
const char *ff_store_errmsg(const ff_store *s);
/* True when the last ff_store_open() created the schema in a new file. */
bool ff_store_created(const ff_store *s);
/* How long a call waits for another writer before failing as locked (ms;
 * the default is 3000). */
void ff_store_set_busy_timeout(ff_store *s, int ms);
/* Caps the database at PAGES pages for this connection; writes past it
 * fail like a full disk.  Tests use it to emulate one. */
ff_err ff_store_set_max_pages(ff_store *s, long pages);

/* --- queries ----------------------------------------------------------- */

/* Loads level NAME into *OUT (caller frees with ff_level_destroy()) and its
 * row into INFO (when not NULL).  On failure *OUT is untouched. */
ff_err ff_store_load(ff_store *s, const char *name, ff_level **out, ff_store_info *info);
/* Fills INFO for NAME without reading the cells. */
ff_err ff_store_stat(ff_store *s, const char *name, ff_store_info *info);
/* Lists every level sorted by name into *OUT (caller frees with free());
 * *N gets the count.  On failure *OUT and *N are untouched. */
ff_err ff_store_list(ff_store *s, ff_store_info **out, size_t *n);
/* Runs SQLite's integrity check: FF_OK, or FF_E_IO with the first problem. */
ff_err ff_store_check(ff_store *s);

/* --- mutators ---------------------------------------------------------- */

/* Saves L (borrowed) under L->meta.name in one transaction.  BASE is the
 * revision the caller loaded, FF_STORE_NEW for a name that must not exist,
 * or FF_STORE_ANY to overwrite.  When the stored revision differs from BASE
 * (changed or removed by someone else, or the name exists for
 * FF_STORE_NEW) nothing is written and FF_E_CONFLICT is returned; the
 * caller may then save under another name with ff_store_save_as().
 * *REV (when not NULL) gets the new revision. */
ff_err ff_store_save(ff_store *s, const ff_level *l, int64_t base, int64_t *rev);
/* Saves a copy of L named NAME, which must not exist yet (FF_E_CONFLICT
 * when it does).  L itself is not changed. */
ff_err ff_store_save_as(ff_store *s, const ff_level *l, const char *name, int64_t *rev);
/* Removes level NAME. */
ff_err ff_store_remove(ff_store *s, const char *name);
/* Copies level FROM to the new name TO (which must not exist). */
ff_err ff_store_copy(ff_store *s, const char *from, const char *to);
/* Renames FROM to TO (which must not exist); the revision goes up by one. */
ff_err ff_store_rename(ff_store *s, const char *from, const char *to);

/* --- replays (replays.c) ----------------------------------------------- */

/* A stored replay log: its name (a level-style name), size and time. */
typedef struct ff_store_replay_info {
	char name[FF_NAME_MAX];
	size_t bytes;
	int64_t created;         /* seconds since the epoch */
} ff_store_replay_info;

/* Stores replay TEXT (LEN bytes) as NAME in one transaction; FF_E_CONFLICT
 * when NAME exists and REPLACE is false. */
ff_err ff_store_replay_save(ff_store *s, const char *name, const char *text,
			    size_t len, bool replace);
/* Loads replay NAME into a NUL-terminated *TEXT the caller frees with
 * free(); FF_E_NOTFOUND when there is none. */
ff_err ff_store_replay_load(ff_store *s, const char *name, char **text, size_t *len);
/* Lists the replays sorted by name into *OUT (caller frees with free()). */
ff_err ff_store_replay_list(ff_store *s, ff_store_replay_info **out, size_t *n);
/* Removes replay NAME. */
ff_err ff_store_replay_remove(ff_store *s, const char *name);

#endif
