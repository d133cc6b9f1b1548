/*
 * db.h - which level database the program uses and how subcommands open
 * it: the global --db option, FIELDMARSHAL_DB, or the default in the user's
 * data directory, created and seeded with the bundled levels on first use.
 */
#ifndef FF_CLI_DB_H
#define FF_CLI_DB_H

#include "core/level.h"
#include "store/store.h"

/* Removes every "--db FILE" and "--db=FILE" from ARGV (up to a "--"),
 * remembering the last FILE, and returns the new ARGC (ARGV stays NULL
 * terminated).  Prints a usage error and returns -1 when FILE is missing. */
int ff_cli_take_db_option(int argc, char **argv);
/* The database path: --db, else $FIELDMARSHAL_DB, else
 * $XDG_DATA_HOME/fieldmarshal/levels.db, else
 * ~/.local/share/fieldmarshal/levels.db.  Returns a static string, or NULL
 * (after printing why) when no location can be worked out. */
const char *ff_cli_db_path(void);
/* Opens the database (creating its directory and the file when missing, and
 * then seeding it with the bundled levels).  Prints why and returns NULL on
 * failure.  Caller frees with ff_store_destroy(). */
ff_store *ff_cli_open_store(void);
/* Calls ADD(ARG, NAME) for each stored level (REPLAYS: each stored replay),
 * in name order; nothing when the list cannot be read. */
void ff_cli_store_names(ff_store *s, bool replays, void (*add)(void *arg, const char *name),
			void *arg);

/* One verb of a store subcommand ('levels list', 'replays rm NAME', ...). */
typedef struct ff_cli_action {
	const char *name;
	int (*fn)(ff_store *s, char **argv);   /* argv: the verb's arguments */
	int nargs;
	int (*json)(ff_store *s, char **argv); /* with --json, or NULL */
} ff_cli_action;

/* Runs 'fieldmarshal CMD VERB ARGS...': --help prints USAGE, no verb means
 * the first action, a wrong verb or argument count is a usage error, and
 * so is --json (anywhere) for a verb with no json function; the store is
 * opened for the action and closed after.  Returns the exit code. */
int ff_cli_store_dispatch(const char *cmd, const char *usage, const ff_cli_action *actions,
			  size_t nactions, int argc, char **argv);
/* The exit code for ERR, printing the store's message on failure. */
int ff_cli_store_done(ff_store *s, ff_err err);
/* Loads the stored level NAME.  Prints "no file or stored level named
 * 'NAME'" or the store's message and returns NULL on failure.  Caller frees
 * with ff_level_destroy(). */
ff_level *ff_cli_load_stored(const char *name);

#endif
