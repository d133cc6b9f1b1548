/*
 * schema.c - the database schema and its forward migrations.
 *
 * PRAGMA user_version holds the schema version; PRAGMA application_id marks
 * the file as ours.  migrations[v] takes schema v to v + 1; a new file runs
 * them all, so the path an old database takes is the one every test takes.
 * All steps run in one IMMEDIATE transaction, with the seeding of a new
 * file (ff_store_set_seeder): a failed or interrupted migration leaves the
 * old schema, an interrupted creation an empty file.  A newer schema is refused untouched.
 * docs/store.md documents every version.
 */
#include <stdio.h>
#include <string.h>

#include "store_int.h"

static const char *const migrations[FF_STORE_SCHEMA] = {
	/* 0 -> 1: levels with header text and cells blob. */
	"CREATE TABLE levels ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" w INTEGER NOT NULL,"
	" h INTEGER NOT NULL,"
	" created INTEGER NOT NULL,"
	" modified INTEGER NOT NULL,"
	" header TEXT NOT NULL,"
	" cells BLOB NOT NULL);",
	/* 1 -> 2: a revision per level (rebuilt so that the small columns stay
	 * ahead of the blob and listing never reads cells), and replays. */
	"CREATE TABLE levels2 ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" w INTEGER NOT NULL,"
	" h INTEGER NOT NULL,"
	" revision INTEGER NOT NULL DEFAULT 1,"
	" created INTEGER NOT NULL,"
	" modified INTEGER NOT NULL,"
	" header TEXT NOT NULL,"
	" cells BLOB NOT NULL);"
	"INSERT INTO levels2 (id, name, w, h, revision, created, modified, header, cells)"
	" SELECT id, name, w, h, 1, created, modified, header, cells FROM levels;"
	"DROP TABLE levels;"
	"ALTER TABLE levels2 RENAME TO levels;"
	"CREATE TABLE replays ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" text TEXT NOT NULL,"
	" created INTEGER NOT NULL);",
};

/* Reads an integer pragma or a count(*) into *V. */
static ff_err read_int(ff_store *s, const char *sql, long long *v)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? FF_OK : st_fail(s, rc, "read the database");
}

/* Reads the version, refusing files that are not ours or too new. */
static ff_err version(ff_store *s, long long *ver)
{
	long long app, ntables;
	ff_err err;

	if ((err = read_int(s, "PRAGMA application_id", &app)) ||
	    (err = read_int(s, "PRAGMA user_version", ver)) ||
	    (err = read_int(s, "SELECT count(*) FROM sqlite_master", &ntables)))
		return err;
	if (app != FF_STORE_APP_ID && (ntables || *ver))
		return st_msg(s, FF_E_IO, "cannot open '%s': it is an SQLite database but "
			      "not a fieldmarshal one", s->path);
	if (*ver > FF_STORE_SCHEMA)
		return st_msg(s, FF_E_VERSION, "cannot open '%s': it has schema %lld, newer "
			      "than this fieldmarshal understands (%d); upgrade fieldmarshal",
			      s->path, *ver, FF_STORE_SCHEMA);
	if (*ver < 0)
		return st_msg(s, FF_E_IO, "cannot open '%s': bad schema version %lld",
			      s->path, *ver);
	return FF_OK;
}

/* Runs the migrations from the version found inside the transaction. */
static ff_err migrate(ff_store *s)
{
	char sql[96];
	long long ver;
	ff_err err;

	if ((err = version(s, &ver)))
		return err;
	s->created = ver == 0;
	for (long long v = ver; v < FF_STORE_SCHEMA; v++)
		if ((err = st_exec(s, migrations[v], "upgrade the database")))
			return err;
	snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 FF_STORE_APP_ID, FF_STORE_SCHEMA);
	return st_exec(s, sql, "upgrade the database");
}

/* Runs the seeder, making sure a failure has a message. */
static ff_err seed(ff_store *s)
{
	ff_err err;

	s->msg[0] = '\0';
	if ((err = s->seed(s, s->seed_ctx)) && !s->msg[0])
		st_msg(s, err, "cannot fill the new database '%s': %s", s->path, ff_strerror(err));
	return err;
}

ff_err st_schema_prepare(ff_store *s, bool readonly)
{
	long long ver;
	ff_err err;

	if ((err = version(s, &ver)) || ver == FF_STORE_SCHEMA)
		return err;
	if (readonly || sqlite3_db_readonly(s->db, "main"))
		return st_msg(s, FF_E_IO, "cannot open '%s': it %s, and it is read-only",
			      s->path, ver ? "needs an upgrade to a newer schema" : "is empty");
	if ((err = st_begin(s, "prepare the database")))
		return err;
	if ((err = migrate(s)) || (s->created && s->seed && (err = seed(s)))) {
		st_rollback(s);
		return err;
	}
	return st_commit(s, "prepare the database");
}
