/*
 * ctl_play.c - playing a replay log back in the editor (replay --tui).
 * The lines before 'begin' (the setup a recording writes: the state it
 * started from and its view) run at once; then '.' runs the next command
 * or view line, running the checks before it silently (a failed one stops
 * the replay and says why), and Space plays a line per period of the
 * speed.  View lines are editor commands (FF_UI_CMD_VIEW: zoom, layers,
 * split), run as the teacher ran them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/replay.h"
#include "ctl_int.h"

/* Runs the view command LINE of a replay; false (said) when it is none. */
static bool run_view(ff_ctl *c, const char *line)
{
	char name[32];
	const ff_ui_cmd *u;

	snprintf(name, sizeof name, "%.*s", (int)strcspn(line, " \t"), line);
	u = ff_ui_cmd_find(name);
	if (!u || !(u->flags & FF_UI_CMD_VIEW)) {
		ff_ctl_say(c, true, "%s:%d: '%s' is not a view command (zoom, layer, group, split)",
			   c->play.name, c->play.line, name);
		return false;
	}
	ff_ctl_line(c, line);
	return !(c->msg_error && c->msg[0]);
}

/* Runs lines up to the next command or view line; with QUIET, says
 * nothing but failures. */
static unsigned play_next(ff_ctl *c, bool quiet)
{
	ff_ctl_playback *p = &c->play;
	ff_replay_report rep;
	const char *text;
	char result[200];
	int line, rc;

	if (!p->player || p->done)
		return 0;
	do
		rc = ff_replay_player_next(p->player, &rep, &line, &text, result, sizeof result);
	while (rc == FF_REPLAY_EXPECT || (rc == FF_REPLAY_BEGIN && !quiet));
	if (rc == 0) {
		p->done = true;
		p->playing = false;
		ff_ctl_say(c, false, "%s: end of the replay, every check passed; q quits", p->name);
	} else if (rc < 0) {
		p->done = true;
		p->playing = false;
		ff_ctl_say(c, true, "%s:%d:%d: %s", p->name, rep.line, rep.col, rep.msg);
	} else {
		p->line = line;
		if (rc == FF_REPLAY_VIEW && !run_view(c, text)) {
			p->done = true;
			p->playing = false;
		} else if (!quiet) {
			ff_ctl_say(c, false, "%s:%d: %s%s%s%s", p->name, line,
				   rc == FF_REPLAY_VIEW ? "view " : "", text,
				   result[0] ? "  => " : "", result);
		}
	}
	ff_ctl_changed(c, FF_REDRAW_ALL);
	return FF_UI_GRID | FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ctl_play(ff_ctl *c, ff_replay_player *p, const char *name)
{
	ff_ctl_playback *pl = &c->play;
	unsigned ui;

	pl->player = p;
	c->s = ff_replay_player_session(p);
	snprintf(pl->name, sizeof pl->name, "%s", name);
	pl->line = 0;
	pl->done = false;
	ui = ff_ctl_set_mode(c, FF_MODE_PLAY) | FF_UI_ALL;
	while (ff_replay_player_in_setup(p) && !pl->done)
		ui |= play_next(c, true);
	if (!pl->done)
		ff_ctl_say(c, false, "%s: Space plays, . runs the next command, q quits", name);
	ff_ctl_follow(c);
	return ui;
}

unsigned ff_ui_play(ff_ctl *c, int argc, char **argv)
{
	ff_ctl_playback *p = &c->play;

	if (!p->player) {
		ff_ctl_say(c, true, "no replay is playing (fieldmarshal replay FILE --tui)");
		return FF_UI_MSG;
	}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") && strcmp(argv[1], "off")))
		return ff_ctl_usage(c, argv[0]);
	p->playing = argc == 2 ? !strcmp(argv[1], "on") : !p->playing;
	c->sim.due_ms = 0;
	if (p->done)
		p->playing = false;
	return FF_UI_STATUS | (p->playing ? play_next(c, false) : 0);
}

unsigned ff_ui_play_next(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->play.playing = false;
	return play_next(c, false);
}

unsigned ff_ctl_play_idle(ff_ctl *c, double elapsed_ms)
{
	const double period = 1000.0 / ldexp(1.0, c->sim.speed);   /* a line per period */

	if (!c->play.playing || c->play.done || c->mode == FF_MODE_HELP)
		return 0;
	c->sim.due_ms += elapsed_ms;
	if (c->sim.due_ms < period)
		return 0;
	c->sim.due_ms = c->sim.due_ms - period > period ? 0 : c->sim.due_ms - period;
	return play_next(c, false);
}
