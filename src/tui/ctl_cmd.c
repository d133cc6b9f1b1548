/*
 * ctl_cmd.c - the editor command table: the one list of the commands that
 * change only the editor (the view, the pen, the program), with their
 * syntax and what they do.  ctl.c parses lines with it, the help screen
 * lists it, the prompt's Tab completes from its syntax, and a command's
 * flags (not its text) say how the editor treats it.  Level commands live
 * in the core's table (core/cmd.c).
 */
#include <string.h>

#include "ctl_int.h"

#define VIEW FF_UI_CMD_VIEW
#define INTERNAL FF_UI_CMD_INTERNAL

static const ff_ui_cmd commands[] = {
	/* the view: zoom, layers and split are recorded as 'view' lines */
	{"move", NULL, "DX,DY", "move the cursor by DX,DY cells", 0, ff_ui_move},
	{"goto", NULL, "X,Y", "put the cursor on X,Y and centre it", 0, ff_ui_goto},
	{"page", NULL, "up|down|left|right", "move the cursor a screen", 0, ff_ui_page},
	{"edge", NULL, "left|right|top|bottom", "move the cursor to an edge", 0, ff_ui_edge},
	{"center", NULL, "", "centre the view on the cursor", 0, ff_ui_center},
	{"zoom", NULL, "in|out|0|1|2", "cell width: glyphs, costs or whole numbers, decimals",
	 VIEW, ff_ui_zoom},
	{"layer", NULL, "costs|numbers|arrows|frontier|goals|spawns|from|unreachable|agents|dyn|"
	 "density|speed|group|lines|sight|sectors [on|off]", "show or hide a layer", VIEW, ff_ui_layer},
	{"group", NULL, "[GROUP|next|prev]",
	 "select a group: O orders it, the group layer shows its field", VIEW, ff_ui_group},
	{"split", NULL, "[dijkstra|fmm|fmm2] [8|4] [cheapest|lowest] | off",
	 "a second pane solving the same level its own way", VIEW, ff_ui_split},
	{"redraw", NULL, "", "paint the whole screen again", 0, ff_ui_redraw},
	/* painting */
	{"pen", NULL, "TERRAIN|next|prev", "the terrain the brush paints", 0, ff_ui_pen},
	{"brush", NULL, "N|+|-", "the brush radius", 0, ff_ui_brush},
	{"dab", NULL, "[TERRAIN]", "paint the brush at the cursor", 0, ff_ui_dab},
	{"draw", NULL, "", "pen down/up: moving the cursor paints", 0, ff_ui_draw},
	{"dpen", NULL, "+N|wall", "what the dynamic pen lays: a cost offset or a temporary wall",
	 0, ff_ui_dpen},
	{"ddab", NULL, "[+N|wall|clear]", "lay the dynamic pen under the brush, or clear the layer "
	 "there", 0, ff_ui_ddab},
	{"goal-here", NULL, "", "add or remove a goal at the cursor", 0, ff_ui_goal_here},
	{"mark", NULL, "", "set the mark: shapes from it to the cursor", 0, ff_ui_mark},
	{"unmark", NULL, "", "drop the mark", 0, ff_ui_unmark},
	/* the simulation */
	{"mode", NULL, "edit|sim", "editing or simulation mode", 0, ff_ui_mode},
	{"run", NULL, "[on|off]", "run or pause the simulation in real time", 0, ff_ui_run},
	{"speed", NULL, "+|-|N", "pace of the simulation and of playback: 2^N times real time",
	 0, ff_ui_speed},
	{"sim-toggle", NULL, "funnel|separation", "switch a behaviour of the crowd", 0,
	 ff_ui_sim_toggle},
	/* files, recording, playback */
	{"write", "w", "[FILE|LEVEL]", "save (to FILE, or as the stored LEVEL)", 0, ff_ui_write},
	{"w!", NULL, "[FILE|LEVEL]", "save over someone else's changes", 0, ff_ui_write},
	{"wq", "x", "[FILE|LEVEL]", "save and quit", 0, ff_ui_wq},
	{"quit", "q", "", "quit (asks when there are unsaved changes)", 0, ff_ui_quit},
	{"quit!", "q!", "", "quit without saving", 0, ff_ui_quit},
	{"edit!", "e!", "", "load the level again from where it came, dropping changes", 0,
	 ff_ui_reload},
	{"export", NULL, "FILE [ansi|text]", "write the screen as text (ansi: in colour)", 0,
	 ff_ui_export},
	{"record", NULL, "[FILE|db:NAME] | stop [FILE|db:NAME]",
	 "record a replay from here, or stop and save it", 0, ff_ui_record},
	{"play", NULL, "[on|off]", "play or pause a replay (replay --tui)", 0, ff_ui_play},
	{"play-next", NULL, "", "run the replay's next command", 0, ff_ui_play_next},
	{"help", NULL, "", "the keys and commands", 0, ff_ui_help},
	{"help-find", NULL, "[TEXT]", "find TEXT in the help (again)", INTERNAL,
	 ff_ui_help_find},
	/* the prompt, the help and the quit question */
	{"prompt", NULL, "[TEXT]", "open the ':' prompt holding TEXT", INTERNAL, ff_ui_prompt},
	{"prompt-run", NULL, "", "run the prompt's line", INTERNAL, ff_ui_prompt_run},
	{"prompt-cancel", NULL, "", "close the prompt", INTERNAL, ff_ui_prompt_cancel},
	{"prompt-history", NULL, "-1|1", "an older or newer line", INTERNAL,
	 ff_ui_prompt_history},
	{"prompt-complete", NULL, "", "complete the word at the cursor", INTERNAL,
	 ff_ui_prompt_complete},
	{"scroll", NULL, "N|page|-page", "scroll the help", INTERNAL, ff_ui_scroll},
	{"confirm-cancel", NULL, "", "keep editing", INTERNAL, ff_ui_confirm_cancel},
};

#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

const ff_ui_cmd *ff_ui_cmd_at(int i)
{
	return i >= 0 && i < NCOMMANDS ? &commands[i] : NULL;
}

const ff_ui_cmd *ff_ui_cmd_find(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name) ||
		    (commands[i].alias && !strcmp(commands[i].alias, name)))
			return &commands[i];
	return NULL;
}

unsigned ff_ctl_usage(ff_ctl *c, const char *argv0)
{
	const ff_ui_cmd *u = ff_ui_cmd_find(argv0);

	if (!u)
		ff_ctl_say(c, true, "usage: %s", argv0);
	else
		ff_ctl_say(c, true, "usage: %s%s%s", argv0, u->args[0] ? " " : "", u->args);
	return FF_UI_MSG;
}
