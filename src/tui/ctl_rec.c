/*
 * ctl_rec.c - recording a replay log from the editor.
 *
 * A recording starts with ff_replay_record_begin() (the commands that
 * rebuild the state as it is: the level inline and its field, or, once
 * there are agents, the session's whole history), then the view as it is
 * (zoom, layers, group, split) as 'view' lines and 'begin', where replay --tui
 * starts.  It gets every core command that succeeded with the state hash
 * after it, written by ff_replay_record_cmd() exactly as 'run --record'
 * writes them, and every view command (FF_UI_CMD_VIEW) as a 'view' line.
 * Moves of the cursor are not recorded.  Ticks of the running simulation
 * are gathered and written as one 'tick N' before the next line (or when
 * the recording stops).
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

	if (!c->rec.on || c->rec.ticks == 0)
		return;
	snprintf(line, sizeof line, "tick %ld", c->rec.ticks);
	c->rec.ticks = 0;
	c->rec.commands++;
	ff_replay_record_cmd(&c->rec.log, c->s, line);
}

void ff_ctl_rec_line(ff_ctl *c, const char *line)
{
	if (!c->rec.on)
		return;
	c->rec.commands++;
	ff_replay_record_cmd(&c->rec.log, c->s, line);
}

void ff_ctl_rec_view(ff_ctl *c, const char *line)
{
	if (!c->rec.on)
		return;
	ff_ctl_rec_flush(c);
	ff_replay_record_view(&c->rec.log, line);
}

/* The view as it is, as the 'view' lines that set it up from a new
 * editor's, then 'begin'. */
static void rec_view(ff_ctl *c)
{
	char line[128], words[64];
	const char *name;
	unsigned bit;

	if (c->view.zoom != 0) {
		snprintf(line, sizeof line, "zoom %d", c->view.zoom);
		ff_replay_record_view(&c->rec.log, line);
	}
	for (int i = 0; (name = ff_ctl_layer(i, &bit)); i++) {
		bool on = c->view.layers & bit;

		if (on != !!(FF_LAYERS_DEFAULT & bit)) {
			snprintf(line, sizeof line, "layer %s %s", name, on ? "on" : "off");
			ff_replay_record_view(&c->rec.log, line);
		}
	}
	if (ff_ctl_group(c)) {
		snprintf(line, sizeof line, "group %s",
			 ff_level_group_name(c->s->level, ff_ctl_group(c)));
		ff_replay_record_view(&c->rec.log, line);
	}
	if (c->split.on) {
		ff_solver_words(&c->split.opts, words, sizeof words);
		snprintf(line, sizeof line, "split %s", words);
		ff_replay_record_view(&c->rec.log, line);
	}
	ff_replay_record_lesson(&c->rec.log);
}

/* Writes the log so far to the target; 0, or an error with MSG saying why. */
static int rec_save(ff_ctl *c, char *msg, size_t size)
{
	const ff_ctl_hooks *h = &c->hooks;

	if (h->save_replay)
		return h->save_replay(h->ctx, c->rec.target, c->rec.log.data, c->rec.log.len, msg,
				      size);
	if (h->write)
		return h->write(h->ctx, c->rec.target, c->rec.log.data, c->rec.log.len, msg, size);
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
	ff_buf_fini(&c->rec.log);
	err = ff_replay_record_begin(&c->rec.log, c->s, PROGRAM);
	if (err == FF_E_STATE) {
		ff_ctl_say(c, true, "cannot record: the agents' history was not kept (out of "
			   "memory); x removes them");
		return FF_UI_MSG;
	}
	if (err) {
		ff_ctl_say(c, true, "cannot record: %s", ff_strerror(err));
		return FF_UI_MSG;
	}
	rec_view(c);
	snprintf(c->rec.target, sizeof c->rec.target, "%s", target);
	/* the header now: a target that cannot be written is found at once,
	 * not when the session's work is done */
	if (!ff_buf_ok(&c->rec.log) || rec_save(c, msg, sizeof msg)) {
		ff_ctl_say(c, true, "cannot record to %s: %s", target,
			   ff_buf_ok(&c->rec.log) ? msg : "out of memory");
		ff_buf_fini(&c->rec.log);
		return FF_UI_MSG;
	}
	c->rec.on = true;
	c->rec.quit_warned = false;
	ff_session_mark_history(c->s, true);   /* the replay starts without it */
	c->rec.ticks = 0;
	c->rec.commands = 0;
	ff_ctl_say(c, false, "recording to %s: R or :record stop saves it", target);
	return FF_UI_STATUS | FF_UI_MSG;
}

static unsigned rec_stop(ff_ctl *c)
{
	char msg[200];
	unsigned long long hash;
	int err;

	ff_ctl_rec_flush(c);
	c->rec.on = false;
	if (!ff_buf_ok(&c->rec.log)) {
		ff_ctl_say(c, true, "recording lost: out of memory");
		ff_buf_fini(&c->rec.log);
		ff_session_mark_history(c->s, false);
		return FF_UI_MSG | FF_UI_STATUS;
	}
	hash = (unsigned long long)ff_session_hash(c->s);
	err = rec_save(c, msg, sizeof msg);
	if (err) {
		/* keep the log: fix the target and ':record stop' again */
		c->rec.on = true;
		ff_ctl_say(c, true, "recording not saved: %s; :record stop FILE saves it "
			   "elsewhere", msg);
	} else {
		ff_ctl_say(c, false, "recorded %d commands to %s; final hash %016llx",
			   c->rec.commands, c->rec.target, hash);
		ff_buf_fini(&c->rec.log);
		ff_session_mark_history(c->s, false);
	}
	return FF_UI_MSG | FF_UI_STATUS;
}

unsigned ff_ui_record(ff_ctl *c, int argc, char **argv)
{
	if (argc == 1 && !c->rec.on)
		return ff_ctl_line(c, "prompt record ");
	if (argc == 1 || (argc <= 3 && !strcmp(argv[1], "stop") && c->rec.on)) {
		if (argc == 3)
			snprintf(c->rec.target, sizeof c->rec.target, "%s", argv[2]);
		return rec_stop(c);
	}
	if (!strcmp(argv[1], "stop")) {
		ff_ctl_say(c, true, "not recording");
		return FF_UI_MSG;
	}
	if (argc != 2)
		return ff_ctl_usage(c, argv[0]);
	if (c->rec.on) {
		ff_ctl_say(c, true, "already recording to %s: R stops", c->rec.target);
		return FF_UI_MSG;
	}
	if (c->play.player) {
		ff_ctl_say(c, true, "a replay is playing: it cannot be recorded");
		return FF_UI_MSG;
	}
	return rec_start(c, argv[1]);
}
