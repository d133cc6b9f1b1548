/*
 * keymap.c - the default key bindings, written in the command language.
 *
 * Placeholders, filled in by the controller before a binding runs:
 *   {x},{y}    the cursor cell          {t}  the pen terrain (name or cost)
 *   {x0},{y0}  top-left of the mark-to-cursor rectangle, {w},{h} its size
 *   {mx},{my}  the mark                 {r}  distance from the mark to the cursor
 * Order matters only for the help screen, which lists the table as it is.
 */
#include <stdio.h>

#include "keymap.h"

#define VIEW FF_M_VIEW
#define GRID FF_M_GRID
#define NORMAL FF_M(FF_MODE_NORMAL)
#define SELECT FF_M(FF_MODE_SELECT)
#define PROMPT FF_M(FF_MODE_PROMPT)
#define HELP FF_M(FF_MODE_HELP)
#define CONFIRM FF_M(FF_MODE_CONFIRM)
#define SIM FF_M(FF_MODE_SIM)
#define PLAY FF_M(FF_MODE_PLAY)

static const ff_binding bindings[] = {
	/* moving */
	{VIEW, 'h', "move -1,0", "cursor left"},
	{VIEW, FF_KEY_LEFT, "move -1,0", "cursor left"},
	{VIEW, 'l', "move 1,0", "cursor right"},
	{VIEW, FF_KEY_RIGHT, "move 1,0", "cursor right"},
	{VIEW, 'k', "move 0,-1", "cursor up"},
	{VIEW, FF_KEY_UP, "move 0,-1", "cursor up"},
	{VIEW, 'j', "move 0,1", "cursor down"},
	{VIEW, FF_KEY_DOWN, "move 0,1", "cursor down"},
	{VIEW, 'H', "move -8,0", "8 cells left"},
	{VIEW, FF_KEY_SLEFT, "move -8,0", "8 cells left"},
	{VIEW, 'L', "move 8,0", "8 cells right"},
	{VIEW, FF_KEY_SRIGHT, "move 8,0", "8 cells right"},
	{VIEW, 'K', "move 0,-8", "8 cells up"},
	{VIEW, FF_KEY_SUP, "move 0,-8", "8 cells up"},
	{VIEW, 'J', "move 0,8", "8 cells down"},
	{VIEW, FF_KEY_SDOWN, "move 0,8", "8 cells down"},
	{VIEW, FF_KEY_PGUP, "page up", "one screen up"},
	{VIEW, FF_KEY_PGDN, "page down", "one screen down"},
	{VIEW, FF_KEY_HOME, "edge left", "to the left edge"},
	{VIEW, FF_KEY_END, "edge right", "to the right edge"},
	{VIEW, 'z', "center", "centre the view on the cursor"},
	{VIEW, '/', "prompt goto ", "jump to a cell (type X,Y)"},
	{VIEW, '+', "zoom in", "wider cells (integration numbers)"},
	{VIEW, '=', "zoom in", "wider cells (integration numbers)"},
	{VIEW, '-', "zoom out", "narrower cells"},
	/* painting */
	{NORMAL, ' ', "dab", "paint the brush with the pen terrain"},
	{NORMAL, 'w', "dab wall", "paint the brush with wall"},
	{NORMAL, 'e', "dab 1", "erase: paint the brush with cost 1"},
	{NORMAL, 'f', "fill {x},{y} {t}", "flood-fill with the pen terrain"},
	{NORMAL, 't', "pen next", "next terrain in the palette"},
	{NORMAL, 'T', "pen prev", "previous terrain in the palette"},
	{NORMAL, 'p', "prompt pen ", "pen: type a terrain name or cost 1..254"},
	{NORMAL, ']', "brush +", "bigger brush"},
	{NORMAL, '[', "brush -", "smaller brush"},
	{NORMAL, 'd', "draw", "pen down/up: moving paints"},
	{NORMAL, 'g', "goal-here", "add or remove a goal at the cursor"},
	{NORMAL, 'v', "mark", "set the mark (shapes from mark to cursor)"},
	{SELECT, 'v', "unmark", "drop the mark"},
	{SELECT, FF_KEY_ESC, "unmark", "drop the mark"},
	{SELECT, 'r', "rect {x0},{y0} {w},{h} {t}", "rectangle of pen terrain"},
	{SELECT, 'i', "line {mx},{my} {x},{y} {t}", "line of pen terrain"},
	{SELECT, 'o', "circle {mx},{my} {r} {t}", "filled circle of pen terrain"},
	{SELECT, 'w', "rect {x0},{y0} {w},{h} wall", "rectangle of wall"},
	{SELECT, 'g', "goal add rect {x0},{y0} {w},{h}", "rectangular goal"},
	{SELECT, 'G', "goal add circle {mx},{my} {r}", "circular goal"},
	{SELECT, 's', "prompt spawn add rect {x0},{y0} {w},{h} ",
	 "spawn area (type the agent count)"},
	{GRID, 'u', "undo", "undo"},
	{GRID, FF_CTRL('r'), "redo", "redo"},
	{GRID, 'U', "redo", "redo"},
	/* the solver: a field follows every edit once it exists */
	{NORMAL, 's', "solve", "solve (Dijkstra, 8 neighbours; :solve fmm 4 for others)"},
	{NORMAL, 'S', "solve off", "drop the field"},
	{GRID, 'b', "step begin", "begin a stepped solve (cost phase)"},
	{GRID, '.', "step cell", "step: settle one cell"},
	{GRID, '>', "step wave", "step: one whole wavefront"},
	{GRID, '}', "step phase", "step: to the end of the phase"},
	{GRID, 'A', "step all", "step: to the end of the solve"},
	{GRID, ',', "step back", "take the last step back"},
	{GRID, '|', "split", "split view: a second solver beside (again: off)"},
	/* the program */
	{GRID, ':', "prompt", "type a command"},
	{GRID, 'W', "write", "save"},
	{GRID, 'R', "record", "start recording a replay (asks where) or stop and save it"},
	{GRID, 'q', "quit", "quit (asks when there are unsaved changes)"},
	{GRID, FF_CTRL('c'), "quit", "quit (asks when there are unsaved changes)"},
	{NORMAL, 'm', "mode sim", "simulation mode (solves first when needed)"},
	/* the simulation */
	{SIM, ' ', "run", "run / pause"},
	{SIM, '.', "tick", "one tick (fixed timestep)"},
	{SIM, '>', "speed +", "faster"},
	{SIM, '<', "speed -", "slower"},
	{SIM, 'i', "sim add {x},{y} 10 1", "10 agents at the cursor"},
	{SIM, 'I', "prompt sim add {x},{y} ", "agents at the cursor (type N [R])"},
	{SIM, 's', "sim spawn", "agents from the level's spawn areas"},
	{SIM, 'x', "sim clear", "remove every agent"},
	{SIM, 'f', "sim-toggle funnel", "funnelling on/off"},
	{SIM, 'r', "sim-toggle separation", "separation on/off"},
	{SIM, 'w', "dab wall", "paint a wall (the field repairs, agents react)"},
	{SIM, 'e', "dab 1", "erase: paint the brush with cost 1"},
	{SIM, 'm', "mode edit", "back to editing"},
	{SIM, FF_KEY_ESC, "mode edit", "back to editing"},
	/* replay playback */
	{PLAY, ' ', "play", "pause / resume"},
	{PLAY, '.', "play-next", "run the next line"},
	{PLAY, '>', "speed +", "faster"},
	{PLAY, '<', "speed -", "slower"},
	{PLAY, 'q', "quit!", "quit"},
	{PLAY, FF_CTRL('c'), "quit!", "quit"},
	/* layers and views */
	{VIEW, 'c', "layer costs", "toggle cost colours"},
	{VIEW, 'n', "layer numbers", "toggle integration numbers"},
	{VIEW, 'a', "layer arrows", "toggle flow arrows"},
	{VIEW, 'F', "layer frontier", "toggle frontier highlight"},
	{VIEW, 'C', "layer from", "toggle came-from arrows (the neighbour that settled a cell)"},
	{VIEW, 'X', "layer unreachable", "toggle unreachable marks"},
	{VIEW, 'o', "layer agents", "toggle agents"},
	{VIEW, '?', "help", "this help"},
	{VIEW, FF_CTRL('l'), "redraw", "redraw the screen"},
	/* the prompt */
	{PROMPT, FF_KEY_ENTER, "prompt-run", "run the command"},
	{PROMPT, FF_KEY_ESC, "prompt-cancel", "cancel"},
	{PROMPT, FF_CTRL('c'), "prompt-cancel", "cancel"},
	{PROMPT, FF_KEY_UP, "prompt-history -1", "previous command"},
	{PROMPT, FF_KEY_DOWN, "prompt-history 1", "next command"},
	/* help */
	{HELP, 'j', "scroll 1", "scroll down"},
	{HELP, FF_KEY_DOWN, "scroll 1", "scroll down"},
	{HELP, 'k', "scroll -1", "scroll up"},
	{HELP, FF_KEY_UP, "scroll -1", "scroll up"},
	{HELP, ' ', "scroll page", "page down"},
	{HELP, FF_KEY_PGDN, "scroll page", "page down"},
	{HELP, FF_KEY_PGUP, "scroll -page", "page up"},
	{HELP, 'q', "help", "close the help"},
	{HELP, '?', "help", "close the help"},
	{HELP, FF_KEY_ESC, "help", "close the help"},
	{HELP, FF_CTRL('c'), "help", "close the help"},
	/* quitting with unsaved changes */
	{CONFIRM, 'y', "quit!", "quit without saving"},
	{CONFIRM, FF_CTRL('c'), "quit!", "quit without saving"},
	{CONFIRM, 'w', "wq", "save, then quit"},
	{CONFIRM, 'n', "confirm-cancel", "keep editing"},
	{CONFIRM, FF_KEY_ESC, "confirm-cancel", "keep editing"},
};

#define NBINDINGS (int)(sizeof bindings / sizeof bindings[0])

const ff_binding *ff_keymap_at(int i)
{
	return i >= 0 && i < NBINDINGS ? &bindings[i] : NULL;
}

const ff_binding *ff_keymap_find(ff_mode_id mode, int key)
{
	const ff_binding *shared = NULL;

	for (int i = 0; i < NBINDINGS; i++)
		if ((bindings[i].modes & FF_M(mode)) && bindings[i].key == key) {
			if (bindings[i].modes == FF_M(mode))
				return &bindings[i];
			if (!shared)
				shared = &bindings[i];
		}
	return shared;
}

void ff_key_name(int key, char *buf, size_t size)
{
	static const char *const named[] = {
		"Up", "Down", "Left", "Right", "S-Up", "S-Down", "S-Left", "S-Right",
		"Home", "End", "PgUp", "PgDn", "Backspace", "Delete", "Resize", "Mouse",
	};

	if (key >= FF_KEY_UP && key <= FF_KEY_MOUSE)
		snprintf(buf, size, "%s", named[key - FF_KEY_UP]);
	else if (key == ' ')
		snprintf(buf, size, "Space");
	else if (key == FF_KEY_ENTER)
		snprintf(buf, size, "Enter");
	else if (key == FF_KEY_ESC)
		snprintf(buf, size, "Esc");
	else if (key > 0 && key < 32)
		snprintf(buf, size, "C-%c", key + 'a' - 1);
	else if (key > 32 && key < 127)
		snprintf(buf, size, "%c", key);
	else
		snprintf(buf, size, "#%d", key);
}

const char *ff_mode_name(ff_mode_id mode)
{
	static const char *const names[FF_MODE__COUNT] = {
		"EDIT", "SELECT", "PROMPT", "HELP", "QUIT?", "SIM", "PLAY",
	};

	return (unsigned)mode < FF_MODE__COUNT ? names[mode] : "?";
}
