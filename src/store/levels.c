/*
 * levels.c - level rows: load, list, save with optimistic concurrency,
 * remove, copy and rename.  Every mutation is one IMMEDIATE transaction, so
 * the revision check and the write see the same state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_int.h"

#define INFO_COLS "name, w, h, revision, created, modified"

static ff_err not_open(ff_store *s)
{
	return st_msg(s, FF_E_STATE, "the level database is not open");
}

static void read_info(sqlite3_stmt *st, ff_store_info *info)
{
	const char *name = (const char *)sqlite3_column_text(st, 0);

	snprintf(info->name, sizeof info->name, "%s", name ? name : "");
	info->w = sqlite3_column_int(st, 1);
	info->h = sqlite3_column_int(st, 2);
	info->revision = sqlite3_column_int64(st, 3);
	info->created = sqlite3_column_int64(st, 4);
	info->modified = sqlite3_column_int64(st, 5);
}

/* Loads NAME inside whatever transaction is current. */
static ff_err load_row(ff_store *s, const char *name, ff_level **out, ff_store_info *info,
		       const char *what)
{
	sqlite3_stmt *st = NULL;
	ff_store_info in;
	ff_err err;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "SELECT " INFO_COLS ", header, cells FROM levels"
				" WHERE name = ?1", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		err = st_msg(s, FF_E_NOTFOUND, "no stored level named '%s'", name);
	} else if (rc != SQLITE_ROW) {
		err = st_fail(s, rc, what);
	} else {
		read_info(st, &in);
		err = out ? st_decode(s, name, (const char *)sqlite3_column_text(st, 6),
				      (size_t)sqlite3_column_bytes(st, 6), in.w, in.h,
				      sqlite3_column_blob(st, 7),
				      (size_t)sqlite3_column_bytes(st, 7), out) : FF_OK;
		if (!err && info)
			*info = in;
	}
	sqlite3_finalize(st);
	return err;
}

ff_err ff_store_load(ff_store *s, const char *name, ff_level **out, ff_store_info *info)
{
	char what[FF_NAME_MAX + 16];
	ff_err err;

	if (!s->db)
		return not_open(s);
	if ((err = st_check_name(s, name, "level")))
		return err;
	snprintf(what, sizeof what, "load '%s'", name);
	if (!(err = load_row(s, name, out, info, what)))
		s->msg[0] = '\0';
	return err;
}

ff_err ff_store_stat(ff_store *s, const char *name, ff_store_info *info)
{
	return ff_store_load(s, name, NULL, info);
}

/* Appends one listed row to *V, growing it. */
static bool push(ff_store_info **v, size_t *n, size_t *cap, sqlite3_stmt *st)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		ff_store_info *nv = realloc(*v, c * sizeof *nv);
		if (!nv)
			return false;
		*v = nv, *cap = c;
	}
	read_info(st, &(*v)[(*n)++]);
	return true;
}

ff_err ff_store_list(ff_store *s, ff_store_info **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	ff_store_info *v = NULL;
	size_t cnt = 0, cap = 0;
	ff_err err = FF_OK;
	int rc;

	if (!s->db)
		return not_open(s);
	rc = sqlite3_prepare_v2(s->db, "SELECT " INFO_COLS " FROM levels ORDER BY name",
				-1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!push(&v, &cnt, &cap, st)) {
			err = st_msg(s, FF_E_NOMEM, "cannot list levels: out of memory");
			break;
		}
		rc = SQLITE_OK;
	}
	if (!err && rc != SQLITE_DONE && rc != SQLITE_OK)
		err = st_fail(s, rc, "list levels");
	sqlite3_finalize(st);
	if (err) {
		free(v);
		return err;
	}
	*out = v, *n = cnt;
	s->msg[0] = '\0';
	return FF_OK;
}

/* The stored revision of NAME into *REV (0 when there is none). */
static ff_err revision(ff_store *s, const char *name, int64_t *rev, const char *what)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "SELECT revision FROM levels WHERE name = ?1",
				    -1, &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	*rev = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? FF_OK : st_fail(s, rc, what);
}

/* Refuses with FF_E_CONFLICT unless the stored revision CUR matches BASE. */
static ff_err check_base(ff_store *s, const char *name, int64_t cur, int64_t base)
{
	if (base == FF_STORE_ANY || cur == base)
		return FF_OK;
	if (base == FF_STORE_NEW)
		return st_msg(s, FF_E_CONFLICT, "a level named '%s' already exists", name);
	if (cur == 0)
		return st_msg(s, FF_E_CONFLICT, "level '%s' was removed by someone else since "
			      "it was loaded; save it under another name", name);
	return st_msg(s, FF_E_CONFLICT, "level '%s' was changed by someone else since it "
		      "was loaded (revision %lld, you loaded %lld); save it under another name",
		      name, (long long)cur, (long long)base);
}

/* Inserts or replaces the row of L given its current revision CUR. */
static ff_err write_row(ff_store *s, const ff_level *l, int64_t cur, const char *what)
{
	static const char ins[] =
		"INSERT INTO levels (name, w, h, revision, created, modified, header, cells)"
		" VALUES (?1, ?2, ?3, 1, ?4, ?4, ?5, ?6)";
	static const char upd[] =
		"UPDATE levels SET w = ?2, h = ?3, revision = revision + 1, modified = ?4,"
		" header = ?5, cells = ?6 WHERE name = ?1";
	sqlite3_stmt *st = NULL;
	size_t hlen, clen;
	char *header = st_header(l, &hlen);
	void *owned;
	const void *cells = st_cells(l, &clen, &owned);
	int rc;

	if (!header || !cells) {
		free(header);
		return st_msg(s, FF_E_NOMEM, "cannot %s: out of memory", what);
	}
	rc = sqlite3_prepare_v2(s->db, cur ? upd : ins, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, l->meta.name, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 2, l->w);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 3, l->h);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 5, header, (int)hlen, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_blob(st, 6, cells, (int)clen, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(header);
	free(owned);
	return rc == SQLITE_DONE ? FF_OK : st_fail(s, rc, what);
}

ff_err ff_store_save(ff_store *s, const ff_level *l, int64_t base, int64_t *rev)
{
	char what[FF_NAME_MAX + 16];
	const char *name = l->meta.name;
	int64_t cur;
	ff_err err;

	if (!s->db)
		return not_open(s);
	if ((err = st_check_name(s, name, "level")))
		return err;
	snprintf(what, sizeof what, "save '%s'", name);
	if ((err = st_begin(s, what)))
		return err;
	if ((err = revision(s, name, &cur, what)) || (err = check_base(s, name, cur, base)) ||
	    (err = write_row(s, l, cur, what))) {
		st_rollback(s);
		return err;
	}
	if ((err = st_commit(s, what)))
		return err;
	if (rev)
		*rev = cur + 1;
	s->msg[0] = '\0';
	return FF_OK;
}

ff_err ff_store_save_as(ff_store *s, const ff_level *l, const char *name, int64_t *rev)
{
	ff_level *copy;
	ff_err err;

	if ((err = st_check_name(s, name, "level")))
		return err;
	if (!(copy = ff_level_clone(l)))
		return st_msg(s, FF_E_NOMEM, "cannot save '%s': out of memory", name);
	err = ff_level_set_name(copy, name, NULL);
	err = err ? st_msg(s, err, "cannot save '%s': %s", name, ff_strerror(err))
		  : ff_store_save(s, copy, FF_STORE_NEW, rev);
	ff_level_destroy(copy);
	return err;
}

ff_err ff_store_remove(ff_store *s, const char *name)
{
	sqlite3_stmt *st = NULL;
	char what[FF_NAME_MAX + 16];
	ff_err err;
	int rc;

	if (!s->db)
		return not_open(s);
	if ((err = st_check_name(s, name, "level")))
		return err;
	snprintf(what, sizeof what, "remove '%s'", name);
	rc = sqlite3_prepare_v2(s->db, "DELETE FROM levels WHERE name = ?1", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return st_fail(s, rc, what);
	if (sqlite3_changes(s->db) == 0)
		return st_msg(s, FF_E_NOTFOUND, "no stored level named '%s'", name);
	s->msg[0] = '\0';
	return FF_OK;
}

/* Renames the row FROM to L's name and header, keeping its creation time. */
static ff_err rename_row(ff_store *s, const ff_level *l, const char *from, const char *what)
{
	sqlite3_stmt *st = NULL;
	size_t hlen, clen;
	char *header = st_header(l, &hlen);
	void *owned;
	const void *cells = st_cells(l, &clen, &owned);
	int rc;

	if (!header || !cells) {
		free(header);
		return st_msg(s, FF_E_NOMEM, "cannot %s: out of memory", what);
	}
	rc = sqlite3_prepare_v2(s->db, "UPDATE levels SET name = ?1, header = ?2,"
				" revision = revision + 1, modified = ?3 WHERE name = ?4",
				-1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, l->meta.name, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, header, (int)hlen, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 4, from, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(header);
	return rc == SQLITE_DONE ? FF_OK : st_fail(s, rc, what);
}

/* Copies (KEEP) or moves FROM to TO inside one transaction. */
static ff_err copy_or_move(ff_store *s, const char *from, const char *to, bool keep)
{
	char what[2 * FF_NAME_MAX + 16];
	ff_level *l = NULL;
	int64_t cur;
	ff_err err;

	if (!s->db)
		return not_open(s);
	if ((err = st_check_name(s, from, "level")) || (err = st_check_name(s, to, "level")))
		return err;
	snprintf(what, sizeof what, "%s '%s' to '%s'", keep ? "copy" : "rename", from, to);
	if ((err = st_begin(s, what)))
		return err;
	if ((err = load_row(s, from, &l, NULL, what)) ||
	    (err = revision(s, to, &cur, what)) ||
	    (err = check_base(s, to, cur, FF_STORE_NEW)))
		goto fail;
	if ((err = ff_level_set_name(l, to, NULL))) {
		err = st_msg(s, err, "cannot %s: %s", what, ff_strerror(err));
		goto fail;
	}
	err = keep ? write_row(s, l, 0, what) : rename_row(s, l, from, what);
	if (err)
		goto fail;
	ff_level_destroy(l);
	if ((err = st_commit(s, what)))
		return err;
	s->msg[0] = '\0';
	return FF_OK;
fail:
	st_rollback(s);
	ff_level_destroy(l);
	return err;
}

ff_err ff_store_copy(ff_store *s, const char *from, const char *to)
{
	return copy_or_move(s, from, to, true);
}

ff_err ff_store_rename(ff_store *s, const char *from, const char *to)
{
	return copy_or_move(s, from, to, false);
}
