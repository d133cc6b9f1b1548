/*
 * replay.h - replay logs: a session's command history with checkpoints
 * (docs/formats.md, "Replay log").  Replaying re-executes every command
 * headless through ff_cmd_exec() and checks every 'expect' line.
 *
 *   fieldmarshal replay 1
 *   program fieldmarshal 0.1.0
 *   level chokepoint              (a stored level or a file; or 'level inline'
 *                                  followed by a text level up to its 'end')
 *   paint 40,15 grass
 *   solve
 *   expect value 10,15 31.7279
 *   expect hash 5be1c0d2e3f4a5b6
 *   view layer numbers on         (the editor's view: replay --tui shows it)
 *   begin                         (replay --tui runs the lines above at once)
 *
 * 'view' and 'begin' lines change nothing headless and are outside the
 * state hash.
 */
#ifndef FF_REPLAY_H
#define FF_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "session.h"

#define FF_REPLAY_MAGIC "fieldmarshal replay 1"

/* Resolves a 'level REF' line.  Returns a new level (the replay frees it) or
 * NULL with a reason in ERR. */
typedef ff_level *(*ff_replay_loader)(void *ctx, const char *ref, char *err,
				      size_t errlen);

typedef struct ff_replay_opts {
	bool update;             /* rewrite expectations with actual values */
	int until_line;          /* stop after this line (0: run to the end) */
	/* Called after each executed line when not NULL (--trace), with the
	 * command's message, or for an 'expect' line the actual value. */
	void (*trace)(void *ctx, int line, const char *text, const char *result);
	void *ctx;               /* for the loader and trace */
} ff_replay_opts;

typedef struct ff_replay_report {
	bool ok;
	int line, col;           /* of the first failure (1-based) */
	char msg[400];
	int commands, checks;    /* executed / checked so far */
	int good_line;           /* the last line whose hash matched (0: none) */
	int diverged_line;       /* the first command after it, where the
				  * state first differed (0: unknown) */
} ff_replay_report;

/* Runs the replay in TEXT.  Stops at the first failure (a malformed line, a
 * command that fails, an expectation not met) and describes it in REP;
 * returns FF_OK when everything held.  With OPTS->update, expectations are
 * not checked but written, and the whole rewritten text goes to OUT. */
ff_err ff_replay_run(const char *text, size_t len, ff_replay_loader load,
		     const ff_replay_opts *opts, ff_replay_report *rep, ff_buf *out);

/* True when LINE (leading blanks allowed) is an 'expect' line. */
bool ff_replay_is_expect(const char *line);

/* What a line of the body is. */
typedef enum ff_replay_kind {
	FF_REPLAY_NONE,          /* blank or a comment */
	FF_REPLAY_COMMAND,       /* a command of the command language */
	FF_REPLAY_EXPECT,        /* an 'expect' line */
	FF_REPLAY_VIEW,          /* 'view COMMAND': an editor view command */
	FF_REPLAY_BEGIN          /* 'begin': the lesson starts here */
} ff_replay_kind;

/* The kind of LINE (leading blanks allowed). */
ff_replay_kind ff_replay_kind_of(const char *line);

/* --- recording --------------------------------------------------------- */

/* Starts a replay log of S in B: the header (PROGRAM is e.g. "fieldmarshal
 * 0.1.0"), the commands that rebuild S (with those 'at' scheduled and still
 * waiting), and the state hash.  Without a
 * simulation: the level inline as it is now, then S's switches and field
 * (its options and every step taken since it began).  With one (agents,
 * even removed ones, leave state no command describes): the level as the
 * session's kept history began (ff_session_keep_log) and that history.
 * FF_E_STATE when S has a simulation and no complete history; FF_E_NOMEM.
 * 'run --record' and the editor both record this way. */
ff_err ff_replay_record_begin(ff_buf *b, const ff_session *s, const char *program);
/* Appends command LINE (leading blanks dropped; blank and comment lines add
 * nothing), then 'expect hash' of S, which must be the state after LINE ran. */
ff_err ff_replay_record_cmd(ff_buf *b, const ff_session *s, const char *line);
/* Appends 'view LINE': an editor command that changed only the view. */
ff_err ff_replay_record_view(ff_buf *b, const char *line);
/* Appends 'begin': replay --tui runs every line before it at once. */
ff_err ff_replay_record_lesson(ff_buf *b);

/* --- playing line by line (replay --tui) ------------------------------- */

typedef struct ff_replay_player ff_replay_player;

/* Reads the header of the replay TEXT (LEN bytes, copied) and starts a
 * session on its level; LOAD and CTX resolve 'level REF'.  NULL with the
 * failure in REP.  Caller frees with ff_replay_player_destroy(). */
ff_replay_player *ff_replay_player_create(const char *text, size_t len,
					  ff_replay_loader load, void *ctx,
					  ff_replay_report *rep);
void ff_replay_player_destroy(ff_replay_player *p);
/* The session the replay runs in (owned by the player). */
ff_session *ff_replay_player_session(ff_replay_player *p);
/* Runs the next line that is not blank or a comment: a command, an
 * expectation, a view line or 'begin'.  Returns its ff_replay_kind (> 0)
 * with its number in *LINE, its text in *TEXT (for a view line, the view
 * command; borrowed until the next call) and the command's message (or
 * an expectation's actual value) in RESULT; 0 at the end; FF_E_PARSE on a
 * failure described in REP, after which the player stays stopped
 * (FF_E_STATE).  The caller runs view commands. */
int ff_replay_player_next(ff_replay_player *p, ff_replay_report *rep, int *line,
			  const char **text, char *result, size_t size);
/* True while a 'begin' line lies ahead: the setup before the lesson. */
bool ff_replay_player_in_setup(const ff_replay_player *p);

/* A stable hash of the session into *OUT: the level (canonical text), the
 * field when there is one (phase, every value and direction), the agents
 * when there are some.  FF_E_NOMEM when there is no memory for the level's
 * text (*OUT untouched): replays and recordings must fail then, not carry
 * on with another hash. */
ff_err ff_session_hash_get(const ff_session *s, uint64_t *out);
/* ff_session_hash_get() for a display: 0 when out of memory. */
uint64_t ff_session_hash(const ff_session *s);

#endif
