/*
 * cmd_edit.c - 'fieldmarshal edit [LEVEL]': the full-screen editor on a
 * stored level (by name; the default is 'chokepoint') or on a level file.
 *
 * Saving goes back where the level came from: a file is rewritten through
 * a temporary file and a rename; a stored level is saved with the revision
 * it was loaded at, so a change made meanwhile by someone else is refused
 * and explained rather than overwritten.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/level_text.h"
#include "db.h"
#include "levelfile.h"
#include "picture.h"
#include "tui/tui.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal edit [LEVEL]\n"
	"\n"
	"Opens the full-screen editor on LEVEL: the name of a level stored in the\n"
	"database (default 'chokepoint'), or a level file (text .level, Moving AI\n"
	".map, Tiled .tmx or .tmj).  Paint costs and walls, place goals, solve\n"
	"and step the solver.\n"
	"In the editor, ? lists the keys, : takes any command (docs/commands.md),\n"
	":w saves (to the file, or to the database with a revision check) and q\n"
	"quits, asking first when there are unsaved changes.  m enters simulation\n"
	"mode; R records a replay log (:record FILE or :record db:NAME).\n"
	"\n"
	"  -h, --help   show this help\n";

typedef struct editor {
	char path[4096];         /* the file being edited, or "" */
	ff_store *store;         /* the database, when editing a stored level */
	char stored[FF_NAME_MAX];/* its name there */
	int64_t rev;             /* the revision loaded or last saved */
} editor;

/* Standard error captured while the editor runs a program part that
 * prints its errors: curses owns the terminal, so nothing may be printed
 * then.  quiet_begin() redirects it to a temporary file; quiet_end() puts
 * it back and, when FAILED, puts the first line printed into MSG. */
typedef struct quiet {
	FILE *tmp;
	int saved;
} quiet;

static void quiet_begin(quiet *q)
{
	fflush(stderr);
	q->tmp = tmpfile();
	q->saved = -1;
	if (q->tmp) {
		q->saved = dup(STDERR_FILENO);
		if (q->saved >= 0)
			dup2(fileno(q->tmp), STDERR_FILENO);
	}
}

static void quiet_end(quiet *q, bool failed, char *msg, size_t size)
{
	char line[256];

	fflush(stderr);
	if (q->saved >= 0) {
		dup2(q->saved, STDERR_FILENO);
		close(q->saved);
	}
	if (q->tmp && failed) {
		rewind(q->tmp);
		if (fgets(line, sizeof line, q->tmp)) {
			const char *p = strncmp(line, "fieldmarshal: ", 14) ? line : line + 14;

			snprintf(msg, size, "%.*s", (int)strcspn(p, "\n"), p);
		}
	}
	if (q->tmp)
		fclose(q->tmp);
}

/* Runs ff_cli_write_file quietly, the reason of a failure in MSG. */
static bool write_quiet(const char *path, const char *data, size_t len, char *msg,
			size_t size)
{
	quiet q;
	bool ok;

	quiet_begin(&q);
	ok = ff_cli_write_file(path, data, len);
	snprintf(msg, size, "cannot write '%s'", path);
	quiet_end(&q, !ok, msg, size);
	return ok;
}

/* Writes the level to PATH, in the format its name asks for (a .map, a
 * Tiled map, else a text level).  It becomes the level's file (and the
 * session is saved) only when the file holds all of it and the level is
 * not a stored one; otherwise PATH gets a copy and the session stays
 * unsaved. */
static int save_file(editor *e, ff_session *s, const char *path, char *msg, size_t size)
{
	const char *format = ff_cli_level_format_of(path);
	long lossy;
	size_t len;
	bool whole;
	char *text = ff_cli_level_format(s->level, format, &len, &lossy, &whole);

	if (!text) {
		snprintf(msg, size, "out of memory");
		return FF_E_NOMEM;
	}
	if (!write_quiet(path, text, len, msg, size)) {
		free(text);
		return FF_E_IO;
	}
	free(text);
	if (!whole && !strcmp(format, "map"))
		snprintf(msg, size, "wrote %s: a .map keeps only the grid (%ld costs rounded); "
			 "the level itself is not saved", path, lossy);
	else if (!whole)
		snprintf(msg, size, "wrote %s: a Tiled map does not keep the dynamic layer; "
			 "the level itself is not saved", path);
	else if (e->store)
		snprintf(msg, size, "wrote a copy to %s; the stored level is not saved", path);
	else
		snprintf(msg, size, "wrote %s (%zu bytes)", path, len);
	if (whole && !e->store) {
		if (path != e->path)
			snprintf(e->path, sizeof e->path, "%s", path);
		s->modified = false;
	}
	return FF_OK;
}

/* Saves under the stored NAME, which must be new unless FORCE (':w!
 * NAME'), and continues editing that copy. */
static int save_as(editor *e, ff_session *s, const char *name, bool force, char *msg,
		   size_t size)
{
	ff_cmd_result r;
	int64_t rev;
	ff_err err;

	if (!ff_level_name_ok(name)) {
		snprintf(msg, size, "bad level name '%s' (letters, digits, '_', '-', '.'; "
			 "a file name needs a '/' or .level)", name);
		return FF_E_INVAL;
	}
	err = ff_store_save_as(e->store, s->level, name, &rev);
	if (err == FF_E_CONFLICT && force) {
		/* overwrite: a copy under NAME saved over whatever is there */
		ff_level *copy = ff_level_clone(s->level);
		err = copy && !ff_level_set_name(copy, name, NULL) ?
		      ff_store_save(e->store, copy, FF_STORE_ANY, &rev) : FF_E_NOMEM;
		ff_level_destroy(copy);
	}
	if (err == FF_E_CONFLICT) {
		snprintf(msg, size, "not saved: %s; :w! %s overwrites it", ff_store_errmsg(e->store),
			 name);
		return err;
	}
	if (err) {
		snprintf(msg, size, "not saved: %s", ff_store_errmsg(e->store));
		return err;
	}
	snprintf(e->stored, sizeof e->stored, "%s", name);
	e->rev = rev;
	if (strcmp(s->level->meta.name, name)) {
		char line[FF_NAME_MAX + 8];

		snprintf(line, sizeof line, "name %s", name);
		ff_cmd_exec(s, line, &r);
	}
	s->modified = false;     /* after the rename: the copy holds it all */
	snprintf(msg, size, "saved as '%s' (revision %lld); editing it now", name,
		 (long long)rev);
	return FF_OK;
}

static int save_stored(editor *e, ff_session *s, bool force, char *msg, size_t size)
{
	ff_store_info info;
	int64_t rev;
	ff_err err;

	if (strcmp(s->level->meta.name, e->stored))
		return save_as(e, s, s->level->meta.name, force, msg, size);
	err = ff_store_save(e->store, s->level, force ? FF_STORE_ANY : e->rev, &rev);
	if (err == FF_E_CONFLICT) {
		if (ff_store_stat(e->store, e->stored, &info) == FF_OK)
			snprintf(msg, size, "not saved: '%s' changed in the database since you "
				 "opened it (revision %lld, yours %lld); :w NAME saves a copy, "
				 ":w! overwrites, :e! loads theirs", e->stored,
				 (long long)info.revision, (long long)e->rev);
		else
			snprintf(msg, size, "not saved: '%s' was removed from the database "
				 "meanwhile; :w NAME saves a copy", e->stored);
		return err;
	}
	if (err) {
		snprintf(msg, size, "not saved: %s", ff_store_errmsg(e->store));
		return err;
	}
	e->rev = rev;
	s->modified = false;
	snprintf(msg, size, "saved '%s' (revision %lld)", e->stored, (long long)rev);
	return FF_OK;
}

static int save(void *ctx, ff_session *s, const char *target, bool force, char *msg,
		size_t size)
{
	editor *e = ctx;

	if (target && (!e->store || strchr(target, '/') || strchr(target, '.')))
		return save_file(e, s, target, msg, size);
	if (target)
		return save_as(e, s, target, force, msg, size);
	if (e->store)
		return save_stored(e, s, force, msg, size);
	return save_file(e, s, e->path, msg, size);
}

static int write_file(void *ctx, const char *path, const char *data, size_t len,
		      char *msg, size_t size)
{
	(void)ctx;
	if (!write_quiet(path, data, len, msg, size))
		return FF_E_IO;
	snprintf(msg, size, "wrote %s (%zu bytes)", path, len);
	return FF_OK;
}

static int picture(void *ctx, const ff_session *s, ff_pic_field field, const char *path,
		   char *msg, size_t size)
{
	const ff_level *l = s->level;
	ff_pic p = {l, field == FF_PIC_COSTS ? NULL : s->solver, l->meta.goals, l->meta.ngoals,
		    field};
	size_t len;
	char *data = ff_cli_picture_data(&p, ff_cli_format_of(path, (const char *[]){"png", NULL}),
					 &len);
	int rc;

	if (!data) {
		snprintf(msg, size, "out of memory");
		return FF_E_NOMEM;
	}
	rc = write_file(ctx, path, data, len, msg, size);
	free(data);
	return rc;
}

/* Saves a replay log the editor recorded: "db:NAME" into the database's
 * replays table (replacing one of that name), anything else to a file. */
static int save_replay(void *ctx, const char *target, const char *data, size_t len,
		       char *msg, size_t size)
{
	editor *e = ctx;
	ff_store *st = e->store;
	ff_err err;

	if (strncmp(target, "db:", 3))
		return write_file(ctx, target, data, len, msg, size);
	if (!st && !(st = ff_cli_open_store())) {
		snprintf(msg, size, "cannot open the database");
		return FF_E_IO;
	}
	err = ff_store_replay_save(st, target + 3, data, len, true);
	if (err)
		snprintf(msg, size, "%s", ff_store_errmsg(st));
	else
		snprintf(msg, size, "saved replay '%s' (%zu bytes)", target + 3, len);
	if (st != e->store)
		ff_store_destroy(st);
	return err;
}

/* :e! - the level again from its file, or the stored level's latest
 * revision (after a save conflict, the other editor's), dropping the
 * session's changes. */
static int reload(void *ctx, ff_session *s, char *msg, size_t size)
{
	editor *e = ctx;
	ff_store_info info;
	ff_level *l = NULL;
	ff_err err;
	quiet q;

	if (e->store) {
		err = ff_store_load(e->store, e->stored, &l, &info);
		if (err) {
			snprintf(msg, size, "cannot load '%s': %s", e->stored,
				 ff_store_errmsg(e->store));
			return err;
		}
		e->rev = info.revision;
		snprintf(msg, size, "loaded '%s' again (revision %lld); your changes are gone",
			 e->stored, (long long)info.revision);
	} else {
		snprintf(msg, size, "cannot load '%s'", e->path);
		quiet_begin(&q);
		l = ff_cli_load_level(e->path);
		quiet_end(&q, !l, msg, size);
		if (!l)
			return FF_E_IO;
		snprintf(msg, size, "loaded %s again; your changes are gone", e->path);
	}
	ff_session_fini(s);
	ff_session_init(s, l);
	return FF_OK;
}

/* Tab at the prompt: files starting with PREFIX ("dir/na" lists dir), or
 * the database's levels or replays. */
static void list(void *ctx, ff_list_kind kind, const char *prefix,
		 void (*add)(void *arg, const char *word), void *arg)
{
	editor *e = ctx;
	const char *slash = strrchr(prefix, '/');
	char dir[4096], word[4400];
	struct dirent *d;
	DIR *dp;

	if (kind != FF_LIST_FILES) {
		if (e->store)
			ff_cli_store_names(e->store, kind == FF_LIST_REPLAYS, add, arg);
		return;
	}
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - prefix + 1) : 0, prefix);
	if (!(dp = opendir(dir[0] ? dir : ".")))
		return;
	while ((d = readdir(dp))) {
		const char *base = slash ? slash + 1 : prefix;
		struct stat st;

		if (strncmp(d->d_name, base, strlen(base)) || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, "..") || (d->d_name[0] == '.' && base[0] != '.'))
			continue;
		snprintf(word, sizeof word, "%s%s", dir, d->d_name);
		if (stat(word, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(word, sizeof word, "%s%s/", dir, d->d_name);
		add(arg, word);
	}
	closedir(dp);
}

/* Loads ARG: a file when one exists by that name, else a stored level. */
static ff_level *load(editor *e, const char *arg)
{
	struct stat st;
	ff_store_info info;
	ff_level *l = NULL;
	ff_err err;

	if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(e->path, sizeof e->path, "%s", arg);
		return ff_cli_load_level(arg);
	}
	if (strchr(arg, '/') || !ff_level_name_ok(arg)) {
		ff_cli_error("no level file '%s'", arg);
		return NULL;
	}
	e->store = ff_cli_open_store();
	if (!e->store)
		return NULL;
	err = ff_store_load(e->store, arg, &l, &info);
	if (err == FF_E_NOTFOUND) {
		ff_cli_error("no file or stored level named '%s' (fieldmarshal levels lists them)",
			     arg);
		return NULL;
	}
	if (err) {
		ff_cli_error("%s", ff_store_errmsg(e->store));
		return NULL;
	}
	snprintf(e->stored, sizeof e->stored, "%s", arg);
	e->rev = info.revision;
	return l;
}

/* After SIGTERM or SIGHUP (SIG) with unsaved changes: writes the level
 * beside its file, or beside the database, as
 * NAME-YYYYmmdd-HHMMSS.recovered.level and says where (the terminal may be
 * gone; the file is what counts). */
static void keep_unsaved(const editor *e, const ff_session *s, int sig)
{
	const char *beside = e->path[0] ? e->path : ff_cli_db_path();
	char dir[4096], path[4300], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t len;
	char *text = ff_textlevel_format(s->level, &len);

	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
	ff_cli_dir_of(beside ? beside : ".", dir, sizeof dir);
	snprintf(path, sizeof path, "%s/%s-%s.recovered.level", dir, s->level->meta.name, stamp);
	if (!text || !ff_cli_write_file(path, text, len))
		ff_cli_error("%s: unsaved changes to '%s' lost", strsignal(sig),
			     s->level->meta.name);
	else if (e->path[0])
		ff_cli_error("%s: unsaved changes to '%s' kept in %s (copy it over %s to "
			     "take them back)", strsignal(sig), e->path, path, e->path);
	else
		ff_cli_error("%s: unsaved changes to '%s' kept in %s (fieldmarshal import "
			     "--force --name %s FILE takes them back)", strsignal(sig),
			     s->level->meta.name, path, s->level->meta.name);
	free(text);
}

int ff_cli_edit(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	editor e = {0};
	ff_ctl_hooks hooks = {&e, save, write_file, save_replay, picture, reload, list};
	ff_session *s;
	ff_level *l;
	char err[256];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return FF_EXIT_OK;
		}
		return ff_cli_usage("edit", "bad option");
	}
	if (argc - optind > 1)
		return ff_cli_usage("edit", "expected at most one LEVEL");
	l = load(&e, optind < argc ? argv[optind] : "chokepoint");
	if (!l) {
		ff_store_destroy(e.store);
		return FF_EXIT_FAIL;
	}
	s = malloc(sizeof *s);
	if (!s) {
		ff_level_destroy(l);
		ff_store_destroy(e.store);
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	ff_session_init(s, l);
	s->mem_avail = ff_cli_mem_avail();
	rc = ff_tui_run(s, &hooks, err, sizeof err);
	if (rc < 0)
		ff_cli_error("%s", err);
	else if (rc > 0 && s->modified)
		keep_unsaved(&e, s, rc);
	rc = rc < 0 ? FF_EXIT_FAIL : rc > 0 ? 128 + rc : FF_EXIT_OK;
	ff_session_fini(s);
	free(s);
	ff_store_destroy(e.store);
	return rc;
}
