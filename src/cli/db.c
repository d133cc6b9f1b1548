/*
 * db.c - the level database as the subcommands see it: its location (the
 * global --db option, FIELDMARSHAL_DB, the XDG data directory) and the
 * seeding of a new database with the bundled levels, looked for in
 * $FIELDMARSHAL_LEVELS, the installed $(pkgdatadir)/levels and the source
 * tree's levels/ (so an uninstalled build works), first that exists.
 */
#define _POSIX_C_SOURCE 200809L /* scandir, strdup */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/level_text.h"
#include "db.h"
#include "util.h"

static const char *db_option;

int ff_cli_take_db_option(int argc, char **argv)
{
	int out = 1, i = 1;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--db")) {
			if (i + 1 >= argc) {
				ff_cli_error("option '--db' needs a FILE");
				return -1;
			}
			db_option = argv[++i];
		} else if (!strncmp(argv[i], "--db=", 5)) {
			db_option = argv[i] + 5;
		} else {
			argv[out++] = argv[i];
		}
	}
	while (i < argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	return out;
}

/* Creates DIR and its parents (mode 0700 for new ones, as XDG asks). */
static bool make_dirs(char *path)
{
	for (char *p = path + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			ff_cli_error("cannot create directory '%s': %s", path, strerror(errno));
			*p = c;
			return false;
		}
		*p = c;
		if (!c)
			return true;
	}
}

const char *ff_cli_db_path(void)
{
	static char path[4096];
	const char *env = getenv("FIELDMARSHAL_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (db_option || (env && *env))
		return db_option ? db_option : env;
	if (xdg && xdg[0] == '/')
		n = snprintf(path, sizeof path, "%s/fieldmarshal", xdg);
	else if (home && *home)
		n = snprintf(path, sizeof path, "%s/.local/share/fieldmarshal", home);
	else {
		ff_cli_error("cannot find the level database: set HOME, XDG_DATA_HOME or use --db");
		return NULL;
	}
	if (n < 0 || (size_t)n + sizeof "/levels.db" > sizeof path) {
		ff_cli_error("data directory path too long");
		return NULL;
	}
	if (!make_dirs(path))
		return NULL;
	strcat(path, "/levels.db");
	return path;
}

/* The first bundled-levels directory that exists, or NULL. */
static const char *levels_dir(void)
{
	const char *env = getenv("FIELDMARSHAL_LEVELS");
	const char *dirs[] = {env && *env ? env : NULL, FF_PKGDATADIR "/levels", FF_SRCLEVELS};
	struct stat st;

	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (dirs[i] && !stat(dirs[i], &st) && S_ISDIR(st.st_mode))
			return dirs[i];
	return NULL;
}

static int is_level_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 6 && !strcmp(e->d_name + n - 6, ".level");
}

/* Saves DIR/FILE into S unless a level of that name exists (a file that
 * does not load is passed over, with a message), counting it in *SAVED;
 * fails only when the database does. */
static ff_err seed_one(ff_store *s, const char *dir, const char *file, int *saved)
{
	char path[4096], name[FF_NAME_MAX];
	ff_level *l = NULL;
	ff_diag diag;
	size_t len;
	char *buf;
	ff_err err;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (!(buf = ff_cli_read_file(path, &len)))
		return FF_OK;
	ff_cli_name_from_path(path, name);
	err = ff_level_parse_any(buf, len, name, &l, &diag);
	free(buf);
	if (err == FF_E_NOMEM)
		return err;
	if (err) {
		ff_cli_error("not seeding '%s': %d:%d: %s", path, diag.line, diag.col, diag.msg);
		return FF_OK;
	}
	err = ff_store_save(s, l, FF_STORE_NEW, NULL);
	ff_level_destroy(l);
	*saved += !err;
	return err == FF_E_CONFLICT ? FF_OK : err;
}

typedef struct seeding {
	const char *dir;         /* where the bundled levels are */
	int saved;
} seeding;

/* The seeder of a new database (ff_store_set_seeder): every bundled level,
 * in the transaction that creates it. */
static ff_err seed(ff_store *s, void *ctx)
{
	seeding *sd = ctx;
	struct dirent **names = NULL;
	ff_err err = FF_OK;
	int n;

	if (!(sd->dir = levels_dir()))
		return FF_OK;
	n = scandir(sd->dir, &names, is_level_file, alphasort);
	for (int i = 0; i < n; i++) {
		if (!err)
			err = seed_one(s, sd->dir, names[i]->d_name, &sd->saved);
		free(names[i]);
	}
	free(names);
	return err;
}

/* For a database PATH that does not exist yet: true when its directory
 * exists and takes a new file, else says which is missing. */
static bool dir_takes(const char *path)
{
	char dir[4096];
	struct stat st;

	if (!stat(path, &st) || errno != ENOENT)
		return true;                    /* exists, or SQLite will say */
	ff_cli_dir_of(path, dir, sizeof dir);
	if (stat(dir, &st)) {
		ff_cli_error("cannot create the database '%s': no directory '%s'", path, dir);
		return false;
	}
	if (access(dir, W_OK | X_OK)) {
		ff_cli_error("cannot create the database '%s': directory '%s' is not writable",
			     path, dir);
		return false;
	}
	return true;
}

ff_store *ff_cli_open_store(void)
{
	const char *path = ff_cli_db_path();
	seeding sd = {NULL, 0};
	ff_store *s;

	if (!path || !dir_takes(path))
		return NULL;
	if (!(s = ff_store_create())) {
		ff_cli_error("out of memory");
		return NULL;
	}
	ff_store_set_seeder(s, seed, &sd);
	if (ff_store_open(s, path, FF_STORE_CREATE)) {
		ff_cli_error("%s", ff_store_errmsg(s));
		ff_store_destroy(s);
		return NULL;
	}
	if (sd.saved)
		ff_cli_error("created '%s' with %d levels from '%s'", path, sd.saved, sd.dir);
	return s;
}

ff_level *ff_cli_load_stored(const char *name)
{
	ff_level *l = NULL;
	ff_store *s;
	ff_err err;

	if (!ff_level_name_ok(name)) {
		ff_cli_error("no file or stored level named '%s'", name);
		return NULL;
	}
	if (!(s = ff_cli_open_store()))
		return NULL;
	err = ff_store_load(s, name, &l, NULL);
	if (err == FF_E_NOTFOUND)
		ff_cli_error("no file or stored level named '%s'", name);
	else if (err)
		ff_cli_error("%s", ff_store_errmsg(s));
	ff_store_destroy(s);
	return l;
}

int ff_cli_store_done(ff_store *s, ff_err err)
{
	if (!err)
		return FF_EXIT_OK;
	ff_cli_error("%s", ff_store_errmsg(s));
	return FF_EXIT_FAIL;
}

int ff_cli_store_dispatch(const char *cmd, const char *usage, const ff_cli_action *actions,
			  size_t nactions, int argc, char **argv)
{
	const ff_cli_action *a = NULL;
	const char *verb;
	bool json = false;
	ff_store *s;
	int rc, n = 1;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return FF_EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else {
			argv[n++] = argv[i]; /* the verb and its arguments, in order */
		}
	argv[n] = NULL;
	verb = n > 1 ? argv[1] : actions[0].name;
	for (size_t i = 0; i < nactions; i++)
		if (!strcmp(verb, actions[i].name))
			a = &actions[i];
	if (!a)
		return ff_cli_usage(cmd, "unknown action '%s'", verb);
	if (n > 1 && n - 2 != a->nargs)
		return ff_cli_usage(cmd, "'%s %s' takes %d argument%s", cmd, a->name, a->nargs,
				    a->nargs == 1 ? "" : "s");
	if (json && !a->json)
		return ff_cli_usage(cmd, "'%s %s' has no --json", cmd, a->name);
	if (!(s = ff_cli_open_store()))
		return FF_EXIT_FAIL;
	rc = (json ? a->json : a->fn)(s, argv + 2);
	ff_store_destroy(s);
	return rc;
}

void ff_cli_store_names(ff_store *s, bool replays, void (*add)(void *arg, const char *name),
			void *arg)
{
	ff_store_replay_info *r = NULL;
	ff_store_info *l = NULL;
	size_t n = 0;

	if (replays && ff_store_replay_list(s, &r, &n) == FF_OK)
		for (size_t i = 0; i < n; i++)
			add(arg, r[i].name);
	if (!replays && ff_store_list(s, &l, &n) == FF_OK)
		for (size_t i = 0; i < n; i++)
			add(arg, l[i].name);
	free(r);
	free(l);
}
