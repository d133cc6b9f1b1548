/*
 * ctl_rec.c - recording a replay log from the editor, and playing one back
 * (replay --tui).
 *
 * A recording starts with ff_replay_record_begin() (the level inline as it
 * is now, and the commands that rebuild the field) and gets every core
 * command that succeeded with the state hash after it, written by
 * ff_replay_record_cmd() exactly as 'run --record' writes them.  Editor
 * commands that only change the view (moves, zoom, layers, split) are not
 * recorded.  Ticks of the running simulation are gathered and written as
 * one 'tick N' before the next command (or when the recording stops).
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "core/replay.h"
#include "ctl_int.h"

#define PROGRAM "fieldmarshal " PACKAGE_VERSION

void ff_ctl_rec_flush(ff_ctl *c)
{
	char line[32];

	if (!c->recording || c->rec_ticks == 0)
		return;
	snprintf(line, sizeof line, "tick %ld", c->rec_ticks);
	c->rec_ticks = 0;
	c->rec_commands++;
	ff_replay_record_cmd(&c->rec, c->s, line);
}

void ff_ctl_rec_line(ff_ctl *c, const char *line)
{
	if (!c->recording)
		return;
	c->rec_commands++;
	ff_replay_record_cmd(&c->rec, c->s, line);
}

/* Writes the log so far to the target; 0, or an error with MSG saying why. */
static int rec_save(ff_ctl *c, char *msg, size_t size)
{
	if (c->hooks.save_replay)
		return c->hooks.save_replay(c->hooks.ctx, c->rec_target, c->rec.data, c->rec.len,
					    msg, size);
	if (c->hooks.write)
		return c->hooks.write(c->hooks.ctx, c->rec_target, c->rec.data, c->rec.len, msg,
				      size);
	snprintf(msg, size, "this editor cannot write files");
	return FF_E_IO;
}

static unsigned rec_start(ff_ctl *c, const char *target)
{
	char msg[200];
	ff_err err;

	if (!strncmp(target, "db:", 3) && !c->hooks.save_replay) {
		ff_ctl_say(c, true, "this editor has no database to record into");
		return FF_UI_MSG;
	}
	if (!strncmp(target, "db:", 3) && !ff_level_name_ok(target + 3)) {
		ff_ctl_say(c, true, "bad replay name '%s' (letters, digits, '_', '-', '.')",
			   target + 3);
		return FF_UI_MSG;
	}
	ff_buf_fini(&c->rec);
	err = ff_replay_record_begin(&c->rec, c->s, PROGRAM);
	if (err == FF_E_STATE) {
		ff_ctl_say(c, true, "cannot record: the session has agents, whose state no "
			   "command rebuilds; record before spawning (reopen the level)");
		return FF_UI_MSG;
	}
	if (err) {
		ff_ctl_say(c, true, "cannot record: %s", ff_strerror(err));
		return FF_UI_MSG;
	}
	snprintf(c->rec_target, sizeof c->rec_target, "%s", target);
	/* the header now: a target that cannot be written is found at once,
	 * not when the session's work is done */
	if (!ff_buf_ok(&c->rec) || rec_save(c, msg, sizeof msg)) {
		ff_ctl_say(c, true, "cannot record to %s: %s", target,
			   ff_buf_ok(&c->rec) ? msg : "out of memory");
		ff_buf_fini(&c->rec);
		return FF_UI_MSG;
	}
	c->recording = true;
	c->rec_quit_warned = false;
	ff_session_mark_history(c->s, true);   /* the replay starts without it */
	c->rec_ticks = 0;
	c->rec_commands = 0;
	ff_ctl_say(c, false, "recording to %s: R or :record stop saves it", target);
	return FF_UI_STATUS | FF_UI_MSG;
}

static unsigned rec_stop(ff_ctl *c)
{
	char msg[200];
	unsigned long long hash;
	int err;

	ff_ctl_rec_flush(c);
	c->recording = false;
	if (!ff_buf_ok(&c->rec)) {
		ff_ctl_say(c, true, "recording lost: out of memory");
		ff_buf_fini(&c->rec);
		ff_session_mark_history(c->s, false);
		return FF_UI_MSG | FF_UI_STATUS;
	}
	hash = (unsigned long long)ff_session_hash(c->s);
	err = rec_save(c, msg, sizeof msg);
	if (err) {
		/* keep the log: fix the target and ':record stop' again */
		c->recording = true;
		ff_ctl_say(c, true, "recording not saved: %s; :record stop FILE saves it "
			   "elsewhere", msg);
	} else {
		ff_ctl_say(c, false, "recorded %d commands to %s; final hash %016llx",
			   c->rec_commands, c->rec_target, hash);
		ff_buf_fini(&c->rec);
		ff_session_mark_history(c->s, false);
	}
	return FF_UI_MSG | FF_UI_STATUS;
}

unsigned ff_ui_record(ff_ctl *c, int argc, char **argv)
{
	if (argc == 1 && !c->recording)
		return ff_ctl_line(c, "prompt record ");
	if (argc == 1 || (argc <= 3 && !strcmp(argv[1], "stop") && c->recording)) {
		if (argc == 3)
			snprintf(c->rec_target, sizeof c->rec_target, "%s", argv[2]);
		return rec_stop(c);
	}
	if (!strcmp(argv[1], "stop")) {
		ff_ctl_say(c, true, "not recording");
		return FF_UI_MSG;
	}
	if (argc != 2)
		return ff_ctl_usage(c, "record FILE|db:NAME | record stop [FILE|db:NAME]");
	if (c->recording) {
		ff_ctl_say(c, true, "already recording to %s: R stops", c->rec_target);
		return FF_UI_MSG;
	}
	return rec_start(c, argv[1]);
}

/* --- playback ------------------------------------------------------------ */

static unsigned play_next(ff_ctl *c)
{
	ff_replay_report rep;
	const char *text;
	char result[200];
	int line, rc;

	if (!c->player || c->play_done)
		return 0;
	rc = ff_replay_player_next(c->player, &rep, &line, &text, result, sizeof result);
	if (rc == 0) {
		c->play_done = true;
		c->playing = false;
		ff_ctl_say(c, false, "%s: end of the replay, every check passed; q quits",
			   c->play_name);
	} else if (rc < 0) {
		c->play_done = true;
		c->playing = false;
		ff_ctl_say(c, true, "%s:%d:%d: %s", c->play_name, rep.line, rep.col, rep.msg);
	} else {
		c->play_line = line;
		ff_ctl_say(c, false, "%s:%d: %s%s%s", c->play_name, line, text,
			   result[0] ? "  => " : "", result);
	}
	ff_ctl_changed(c, FF_REDRAW_ALL);
	return FF_UI_GRID | FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_play(ff_ctl *c, int argc, char **argv)
{
	if (!c->player) {
		ff_ctl_say(c, true, "no replay is playing (fieldmarshal replay FILE --tui)");
		return FF_UI_MSG;
	}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") && strcmp(argv[1], "off")))
		return ff_ctl_usage(c, "play [on|off]");
	c->playing = argc == 2 ? !strcmp(argv[1], "on") : !c->playing;
	c->due_ms = 0;
	if (c->play_done)
		c->playing = false;
	return FF_UI_STATUS | (c->playing ? play_next(c) : 0);
}

unsigned ff_ui_play_next(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->playing = false;
	return play_next(c);
}

unsigned ff_ctl_play_idle(ff_ctl *c, double elapsed_ms)
{
	double period = 1000.0 / (c->speed >= 0 ? (double)(1 << c->speed) :
				  1.0 / (double)(1 << -c->speed));

	if (!c->playing || c->play_done || c->mode == FF_MODE_HELP)
		return 0;
	c->due_ms += elapsed_ms;
	if (c->due_ms < period)
		return 0;
	c->due_ms = c->due_ms - period > period ? 0 : c->due_ms - period;
	return play_next(c);
}
