/*
 * ctl_file.c - the editor and the outside world: saving (through the
 * hooks the program supplies), loading the level again after a save
 * conflict (:e!), exporting the screen (as text, or a picture of the field
 * as SVG or PNG), and quitting, which asks first about unsaved changes and
 * saves a recording that is still running.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_int.h"
#include "view.h"

static unsigned save(ff_ctl *c, const char *target, bool force)
{
	char was[FF_NAME_MAX], line[FF_NAME_MAX + 8];
	int err;

	if (!c->hooks.save) {
		ff_ctl_say(c, true, "this editor cannot save");
		return FF_UI_MSG;
	}
	memcpy(was, c->s->level->meta.name, sizeof was);
	err = c->hooks.save(c->hooks.ctx, c->s, target, force, c->msg, sizeof c->msg);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = err != 0;
	/* saved under a new name ('name' in the core): a recording says so */
	if (strcmp(was, c->s->level->meta.name)) {
		snprintf(line, sizeof line, "name %s", c->s->level->meta.name);
		ff_ctl_rec_flush(c);             /* ticks gathered so far first */
		ff_ctl_rec_line(c, line);
	}
	return FF_UI_STATUS | FF_UI_MSG | (err ? 0 : FF_UI_GRID);
}

unsigned ff_ui_write(ff_ctl *c, int argc, char **argv)
{
	if (argc > 2)
		return ff_ctl_usage(c, argv[0]);
	return save(c, argc == 2 ? argv[1] : NULL, !strcmp(argv[0], "w!"));
}

/* Before quitting: saves the recording.  When it cannot be saved, says so
 * and returns false; FORCE (q!) a second time drops it. */
static bool rec_stopped(ff_ctl *c, bool force)
{
	char why[sizeof c->msg];

	ff_ctl_line(c, "record stop");
	if (!c->rec.on)
		return true;
	if (force && c->rec.quit_warned)
		return true;
	c->rec.quit_warned = true;
	memcpy(why, c->msg, sizeof why);
	ff_ctl_say(c, true, "%.150s; :q! again drops it", why);
	return false;
}

unsigned ff_ui_quit(ff_ctl *c, int argc, char **argv)
{
	const bool force = !strcmp(argv[0], "quit!") || !strcmp(argv[0], "q!");

	(void)argc;
	if (!c->s->modified || c->play.player || force) {
		if (c->rec.on && !rec_stopped(c, force))
			return FF_UI_MSG | FF_UI_STATUS | ff_ctl_set_mode(c, ff_ctl_grid_mode(c));
		c->quit = true;
		return 0;
	}
	ff_ctl_say(c, true, "unsaved changes: y (or Ctrl-C again) quits without saving, w saves "
		   "and quits, n keeps editing");
	return ff_ctl_set_mode(c, FF_MODE_CONFIRM) | FF_UI_MSG;
}

unsigned ff_ui_wq(ff_ctl *c, int argc, char **argv)
{
	unsigned ui;

	if (argc > 2)
		return ff_ctl_usage(c, argv[0]);
	ui = save(c, argc == 2 ? argv[1] : NULL, false);
	if (c->s->modified) {
		/* the save failed: stay, and say why */
		return ui | ff_ctl_set_mode(c, ff_ctl_grid_mode(c));
	}
	if (c->rec.on && !rec_stopped(c, false))
		return ui | FF_UI_MSG | FF_UI_STATUS;
	c->quit = true;
	return ui;
}

unsigned ff_ui_reload(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l;
	int err;

	if (argc != 1)
		return ff_ctl_usage(c, argv[0]);
	if (!c->hooks.reload) {
		ff_ctl_say(c, true, "this editor cannot load the level again");
		return FF_UI_MSG;
	}
	if (c->rec.on) {
		ff_ctl_say(c, true, "recording: R stops it before the level is loaded again");
		return FF_UI_MSG;
	}
	err = c->hooks.reload(c->hooks.ctx, c->s, c->msg, sizeof c->msg);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = err != 0;
	if (err)
		return FF_UI_MSG;
	/* a new session: its history starts here, the view stays */
	ff_session_keep_log(c->s);
	l = c->s->level;
	c->view.cx = ff_ctl_clamp(c->view.cx, 0, l->w - 1);
	c->view.cy = ff_ctl_clamp(c->view.cy, 0, l->h - 1);
	c->pen.drawing = false;
	c->sim.running = false;
	c->slice.solving = false;
	ff_ctl_changed(c, FF_REDRAW_ALL);
	ff_ctl_follow(c);
	return ff_ctl_set_mode(c, FF_MODE_NORMAL) | FF_UI_CLEAR;
}

unsigned ff_ui_confirm_cancel(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->msg[0] = '\0';
	return ff_ctl_set_mode(c, ff_ctl_grid_mode(c)) | FF_UI_MSG;
}

/* ':export FILE.svg' or '.png': the field the layers show, drawn. */
static unsigned export_picture(ff_ctl *c, const char *path)
{
	const ff_session *s = c->s;
	const unsigned layers = c->view.layers;
	bool done = s->field && ff_solver_phase(s->solver) == FF_PHASE_DONE;
	ff_pic_field f = !done ? FF_PIC_COSTS : layers & FF_LAYER_ARROWS ? FF_PIC_FLOW :
			 layers & FF_LAYER_NUMBERS ? FF_PIC_INTEGRATION : FF_PIC_COSTS;

	if (!c->hooks.picture) {
		ff_ctl_say(c, true, "this editor cannot draw pictures");
		return FF_UI_MSG;
	}
	c->msg_error = c->hooks.picture(c->hooks.ctx, s, f, path, c->msg, sizeof c->msg) != 0;
	ff_escape_msg(c->msg, sizeof c->msg);
	return FF_UI_MSG;
}

/* True when PATH ends in ".EXT". */
static bool ends_in(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);

	return n > k + 1 && path[n - k - 1] == '.' && !strcmp(path + n - k, ext);
}

unsigned ff_ui_export(ff_ctl *c, int argc, char **argv)
{
	char *text;
	size_t len;
	int err;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "ansi") &&
				     strcmp(argv[2], "text")))
		return ff_ctl_usage(c, argv[0]);
	if (argc == 2 && (ends_in(argv[1], "svg") || ends_in(argv[1], "png")))
		return export_picture(c, argv[1]);
	if (!c->hooks.write) {
		ff_ctl_say(c, true, "this editor cannot write files");
		return FF_UI_MSG;
	}
	text = ff_view_export(c, argc == 3 && !strcmp(argv[2], "ansi"), &len);
	if (!text) {
		ff_ctl_say(c, true, "out of memory");
		return FF_UI_MSG;
	}
	err = c->hooks.write(c->hooks.ctx, argv[1], text, len, c->msg, sizeof c->msg);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = err != 0;
	free(text);
	return FF_UI_MSG;
}
