/*
 * replays.c - replay logs kept beside the levels (table 'replays', schema
 * 2): save, load, list, remove.  The text is stored as it is; replaying it
 * is core's job (src/core/replay.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_int.h"

static ff_err ready(ff_store *s, const char *name)
{
	if (!s->db)
		return st_msg(s, FF_E_STATE, "the level database is not open");
	return name ? st_check_name(s, name, "replay") : FF_OK;
}

/* Prepares SQL and binds NAME (when not NULL) as ?1. */
static int prepare(ff_store *s, const char *sql, const char *name, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

	if (rc == SQLITE_OK && name)
		rc = sqlite3_bind_text(*st, 1, name, -1, SQLITE_STATIC);
	return rc;
}

ff_err ff_store_replay_save(ff_store *s, const char *name, const char *text,
			    size_t len, bool replace)
{
	sqlite3_stmt *st = NULL;
	ff_err err;
	int rc;

	if ((err = ready(s, name)) || (err = st_begin(s, "save the replay")))
		return err;
	rc = prepare(s, replace ? "INSERT OR REPLACE INTO replays (name, text, created)"
				  " VALUES (?1, ?2, ?3)"
				: "INSERT INTO replays (name, text, created) VALUES (?1, ?2, ?3)",
		     name, &st);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, text, (int)len, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if ((rc & 0xff) == SQLITE_CONSTRAINT) {
		st_rollback(s);
		return st_msg(s, FF_E_CONFLICT, "a replay named '%s' exists already", name);
	}
	if (rc != SQLITE_DONE) {
		err = st_fail(s, rc, "save the replay");
		st_rollback(s);
		return err;
	}
	return st_commit(s, "save the replay");
}

ff_err ff_store_replay_load(ff_store *s, const char *name, char **text, size_t *len)
{
	sqlite3_stmt *st = NULL;
	ff_err err = FF_OK;
	int rc;

	if ((err = ready(s, name)))
		return err;
	rc = prepare(s, "SELECT text FROM replays WHERE name = ?1", name, &st);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		size_t n = (size_t)sqlite3_column_bytes(st, 0);
		char *t = malloc(n + 1);

		if (!t) {
			err = st_msg(s, FF_E_NOMEM, "cannot load replay '%s': out of memory", name);
		} else {
			memcpy(t, sqlite3_column_text(st, 0), n);
			t[n] = '\0';
			*text = t;
			*len = n;
		}
	} else if (rc == SQLITE_DONE) {
		err = st_msg(s, FF_E_NOTFOUND, "no stored replay named '%s'", name);
	} else {
		err = st_fail(s, rc, "load the replay");
	}
	sqlite3_finalize(st);
	return err;
}

ff_err ff_store_replay_list(ff_store *s, ff_store_replay_info **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	ff_store_replay_info *v = NULL;
	size_t k = 0, cap = 0;
	ff_err err;
	int rc;

	if ((err = ready(s, NULL)))
		return err;
	rc = prepare(s, "SELECT name, length(CAST(text AS BLOB)), created FROM replays"
			" ORDER BY name", NULL, &st);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == cap) {
			ff_store_replay_info *g = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof *v);
			if (!g) {
				rc = SQLITE_NOMEM;
				break;
			}
			v = g;
		}
		snprintf(v[k].name, sizeof v[k].name, "%s", (const char *)sqlite3_column_text(st, 0));
		v[k].bytes = (size_t)sqlite3_column_int64(st, 1);
		v[k++].created = sqlite3_column_int64(st, 2);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return st_fail(s, rc, "list the replays");
	}
	*out = v;
	*n = k;
	return FF_OK;
}

ff_err ff_store_replay_remove(ff_store *s, const char *name)
{
	sqlite3_stmt *st = NULL;
	ff_err err;
	int rc;

	if ((err = ready(s, name)))
		return err;
	rc = prepare(s, "DELETE FROM replays WHERE name = ?1", name, &st);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return st_fail(s, rc, "remove the replay");
	if (sqlite3_changes(s->db) == 0)
		return st_msg(s, FF_E_NOTFOUND, "no stored replay named '%s'", name);
	return FF_OK;
}
