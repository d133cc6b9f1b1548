/*
 * keymap.c - the default key bindings, written in the command language.
 *
 * Placeholders, filled in by the controller before a binding runs:
 *   {x},{y}    the cursor cell          {t}  the pen terrain (name or cost)
 *   {x0},{y0}  top-left of the mark-to-cursor rectangle, {w},{h} its size
 *   {mx},{my}  the mark                 {r}  distance from the mark to the cursor
 *   {dp}       the dynamic pen (+N or wall)
 *   {group}    the selected group's name ('default' for the default group)
 * The help screen lists the bindings topic by topic, in the order of the
 * table within a topic.
 */
#include <stdio.h>

#include "core/level.h"
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

#define LESSON FF_TOPIC_LESSON
#define SHOW FF_TOPIC_VIEW
#define MOVE FF_TOPIC_MOVE
#define EDIT FF_TOPIC_EDIT
#define MARK FF_TOPIC_MARK
#define CROWD FF_TOPIC_SIM
#define FILES FF_TOPIC_FILE
#define REPLAY FF_TOPIC_PLAY
#define ENDS FF_BIND_ENDS_MARK

static const ff_binding bindings[] = {
	/* the lesson (docs/teaching.md), first in the help */
	{VIEW, '+', 0, "zoom in", "wider cells: costs, then integration values", LESSON, 0},
	{VIEW, '=', 0, "zoom in", "wider cells: costs, then integration values", LESSON, 0},
	{VIEW, '-', 0, "zoom out", "narrower cells", LESSON, 0},
	{VIEW, 'c', 0, "layer costs", "cost colours on/off", LESSON, 0},
	{GRID, 'b', 0, "step begin", "begin a stepped solve (cost phase)", LESSON, 0},
	{GRID, '.', 0, "step cell", "step: settle one cell", LESSON, 0},
	{GRID, '>', 0, "step wave", "step: one whole wavefront", LESSON, 0},
	{GRID, '}', 0, "step phase", "step: to the end of the phase", LESSON, 0},
	{GRID, 'A', 0, "step all", "step: to the end of the solve", LESSON, 0},
	{GRID, ',', 0, "step back", "take the last step back", LESSON, 0},
	{VIEW, 'n', 0, "layer numbers", "integration numbers on/off", LESSON, 0},
	{VIEW, 'a', 0, "layer arrows", "flow arrows on/off", LESSON, 0},
	{VIEW, 'C', 0, "layer from", "came-from arrows: where each value came from", LESSON, 0},
	{VIEW, 'F', 0, "layer frontier", "frontier (+) and last settled cell (@) on/off",
	 LESSON, 0},
	{NORMAL, 's', 0, "solve", "solve in one go (:solve fmm, :solve 4, :solve lowest)",
	 LESSON, 0},
	{NORMAL, 'S', 0, "solve off", "drop the field", LESSON, 0},
	{GRID, '|', 0, "split", "split view: a second pane, another solver (again: off)", LESSON, 0},
	/* views */
	{VIEW, 'X', 0, "layer unreachable", "unreachable marks (x) on/off", SHOW, 0},
	{VIEW, 'o', 0, "layer agents", "agents on/off", SHOW, 0},
	{VIEW, 'D', 0, "layer dyn", "the dynamic layer on/off (temporary walls, offsets)", SHOW,
	 0},
	{VIEW, '#', 0, "layer density", "crowd density on/off: heat colours (digits if mono)",
	 SHOW, 0},
	{VIEW, 'V', 0, "layer speed", "agents coloured by their speed, not group, on/off", SHOW,
	 0},
	{VIEW, 'z', 0, "center", "centre the view on the cursor", SHOW, 0},
	{VIEW, FF_CTRL('l'), 0, "redraw", "redraw the screen", SHOW, 0},
	{VIEW, '?', 0, "help", "this help", SHOW, 0},
	/* moving */
	{VIEW, 'h', 0, "move -1,0", "cursor left", MOVE, 0},
	{VIEW, FF_KEY_LEFT, 0, "move -1,0", "cursor left", MOVE, 0},
	{VIEW, 'l', 0, "move 1,0", "cursor right", MOVE, 0},
	{VIEW, FF_KEY_RIGHT, 0, "move 1,0", "cursor right", MOVE, 0},
	{VIEW, 'k', 0, "move 0,-1", "cursor up", MOVE, 0},
	{VIEW, FF_KEY_UP, 0, "move 0,-1", "cursor up", MOVE, 0},
	{VIEW, 'j', 0, "move 0,1", "cursor down", MOVE, 0},
	{VIEW, FF_KEY_DOWN, 0, "move 0,1", "cursor down", MOVE, 0},
	{VIEW, 'H', 0, "move -8,0", "8 cells left", MOVE, 0},
	{VIEW, FF_KEY_SLEFT, 0, "move -8,0", "8 cells left", MOVE, 0},
	{VIEW, 'L', 0, "move 8,0", "8 cells right", MOVE, 0},
	{VIEW, FF_KEY_SRIGHT, 0, "move 8,0", "8 cells right", MOVE, 0},
	{VIEW, 'K', 0, "move 0,-8", "8 cells up", MOVE, 0},
	{VIEW, FF_KEY_SUP, 0, "move 0,-8", "8 cells up", MOVE, 0},
	{VIEW, 'J', 0, "move 0,8", "8 cells down", MOVE, 0},
	{VIEW, FF_KEY_SDOWN, 0, "move 0,8", "8 cells down", MOVE, 0},
	{VIEW, FF_KEY_PGUP, 0, "page up", "one screen up", MOVE, 0},
	{VIEW, FF_KEY_PGDN, 0, "page down", "one screen down", MOVE, 0},
	{VIEW, FF_KEY_HOME, 0, "edge left", "to the left edge", MOVE, 0},
	{VIEW, FF_KEY_END, 0, "edge right", "to the right edge", MOVE, 0},
	{VIEW, '/', 0, "prompt goto ", "jump to a cell (type X,Y)", MOVE, 0},
	/* editing */
	{NORMAL, ' ', 0, "dab", "paint the brush with the pen terrain", EDIT, 0},
	{NORMAL, 'w', 0, "dab wall", "paint the brush with wall", EDIT, 0},
	{NORMAL, 'e', 0, "dab 1", "erase: paint the brush with cost 1", EDIT, 0},
	{NORMAL, 'f', 0, "fill {x},{y} {t}", "flood-fill with the pen terrain", EDIT, 0},
	{NORMAL, 't', 0, "pen next", "next terrain in the palette", EDIT, 0},
	{NORMAL, 'T', 0, "pen prev", "previous terrain in the palette", EDIT, 0},
	{NORMAL, 'p', 0, "prompt pen ", "pen: type a terrain name or cost " FF_COST_RANGE, EDIT, 0},
	{NORMAL, ']', 0, "brush +", "bigger brush", EDIT, 0},
	{NORMAL, '[', 0, "brush -", "smaller brush", EDIT, 0},
	{NORMAL, 'd', 0, "draw", "pen down/up: moving paints", EDIT, 0},
	{NORMAL, 'g', 0, "goal-here", "add or remove a goal at the cursor", EDIT, 0},
	{NORMAL, 'y', 0, "ddab", "lay the dynamic pen (a temporary wall, +N) under the brush",
	 EDIT, 0},
	{NORMAL, 'Y', 0, "ddab clear", "clear the dynamic layer under the brush", EDIT, 0},
	{NORMAL, 'P', 0, "prompt dpen ", "dynamic pen: type +N or wall", EDIT, 0},
	{GRID, 'u', 0, "undo", "undo", EDIT, 0},
	{GRID, FF_CTRL('r'), 0, "redo", "redo", EDIT, 0},
	{GRID, 'U', 0, "redo", "redo", EDIT, 0},
	/* shapes from the mark */
	{NORMAL, 'v', 0, "mark", "set the mark (shapes from mark to cursor)", MARK, 0},
	{SELECT, 'v', 0, "unmark", "drop the mark", MARK, 0},
	{SELECT, FF_KEY_ESC, 0, "unmark", "drop the mark", MARK, 0},
	{SELECT, 'r', 0, "rect {x0},{y0} {w},{h} {t}", "rectangle of pen terrain", MARK, ENDS},
	{SELECT, 'i', 0, "line {mx},{my} {x},{y} {t}", "line of pen terrain", MARK, ENDS},
	{SELECT, 'o', 0, "circle {mx},{my} {r} {t}", "filled circle of pen terrain", MARK, ENDS},
	{SELECT, 'w', 0, "rect {x0},{y0} {w},{h} wall", "rectangle of wall", MARK, ENDS},
	{SELECT, 'g', 0, "goal add rect {x0},{y0} {w},{h}", "rectangular goal", MARK, ENDS},
	{SELECT, 'G', 0, "goal add circle {mx},{my} {r}", "circular goal", MARK, ENDS},
	{SELECT, 's', 0, "prompt spawn add rect {x0},{y0} {w},{h} ",
	 "spawn area (type the agent count)", MARK, ENDS},
	{SELECT, 'y', 0, "dyn rect {x0},{y0} {w},{h} {dp}", "rectangle of the dynamic pen", MARK,
	 ENDS},
	{SELECT, 'Y', 0, "dyn clear rect {x0},{y0} {w},{h}", "clear the dynamic layer there",
	 MARK, ENDS},
	/* the simulation */
	{NORMAL, 'm', 0, "mode sim", "simulation mode (solves first when needed)", CROWD, 0},
	{SIM, ' ', 0, "run", "run / pause", CROWD, 0},
	{SIM, '.', 0, "tick", "one tick (fixed timestep)", CROWD, 0},
	{SIM, '>', 0, "speed +", "faster", CROWD, 0},
	{SIM, '<', 0, "speed -", "slower", CROWD, 0},
	{SIM, 'i', 0, "sim add {x},{y} 10 1", "10 agents at the cursor", CROWD, 0},
	{SIM, 'I', 0, "prompt sim add {x},{y} ", "agents at the cursor (type N [R])", CROWD, 0},
	{SIM, 's', 0, "sim spawn", "agents from the level's spawn areas", CROWD, 0},
	{SIM, 'x', 0, "sim reset", "remove the agents with their counters: start afresh", CROWD, 0},
	{SIM, 'f', 0, "sim-toggle funnel", "funnelling on/off", CROWD, 0},
	{SIM, 'r', 0, "sim-toggle separation", "separation on/off", CROWD, 0},
	{SIM, 'w', 0, "dab wall", "paint a wall (the field repairs, agents react)", CROWD, 0},
	{SIM, 'e', 0, "dab 1", "erase: paint the brush with cost 1", CROWD, 0},
	{SIM, 'y', 0, "ddab", "lay the dynamic pen: close a door, agents re-route", CROWD, 0},
	{SIM, 'Y', 0, "ddab clear", "clear the dynamic layer: open it again", CROWD, 0},
	{VIEW, FF_KEY_TAB, 0, "group next", "select the next group (the status line names it)",
	 CROWD, 0},
	{VIEW, 'G', 0, "layer group", "the selected group's field (arrows, numbers) on/off", CROWD,
	 0},
	{NORMAL | SIM, 'O', 0, "order {group} cell {x},{y}",
	 "move order: the selected group's goal becomes the cursor", CROWD, 0},
	{SELECT, 'O', 0, "order {group} rect {x0},{y0} {w},{h}",
	 "order the selected group to the rectangle", MARK, ENDS},
	{SIM, 'm', 0, "mode edit", "back to editing", CROWD, 0},
	{SIM, FF_KEY_ESC, 0, "mode edit", "back to editing", CROWD, 0},
	/* the program */
	{GRID, ':', 0, "prompt", "type a command (Tab completes)", FILES, 0},
	{GRID, 'W', 0, "write", "save", FILES, 0},
	{GRID, 'R', 0, "record", "start recording a replay (asks where) or stop and save it",
	 FILES, 0},
	{GRID, 'Z', 'Z', "wq", "save and quit", FILES, 0},
	{GRID, 'q', 0, "quit", "quit (asks when there are unsaved changes)", FILES, 0},
	{GRID, FF_CTRL('c'), 0, "quit", "quit (asks when there are unsaved changes)", FILES, 0},
	/* replay playback */
	{PLAY, ' ', 0, "play", "pause / resume", REPLAY, 0},
	{PLAY, '.', 0, "play-next", "run the next command (checks pass silently)", REPLAY, 0},
	{PLAY, '>', 0, "speed +", "faster", REPLAY, 0},
	{PLAY, '<', 0, "speed -", "slower", REPLAY, 0},
	{PLAY, 'q', 0, "quit!", "quit", REPLAY, 0},
	{PLAY, FF_CTRL('c'), 0, "quit!", "quit", REPLAY, 0},
	/* the prompt */
	{PROMPT, FF_KEY_ENTER, 0, "prompt-run", "run the command", FF_TOPIC_PROMPT, 0},
	{PROMPT, FF_KEY_TAB, 0, "prompt-complete",
	 "complete a command, terrain, parameter, level or file", FF_TOPIC_PROMPT, 0},
	{PROMPT, FF_KEY_ESC, 0, "prompt-cancel", "cancel", FF_TOPIC_PROMPT, 0},
	{PROMPT, FF_CTRL('c'), 0, "prompt-cancel", "cancel", FF_TOPIC_PROMPT, 0},
	{PROMPT, FF_KEY_UP, 0, "prompt-history -1", "previous command", FF_TOPIC_PROMPT, 0},
	{PROMPT, FF_KEY_DOWN, 0, "prompt-history 1", "next command", FF_TOPIC_PROMPT, 0},
	/* help */
	{HELP, '/', 0, "prompt help-find ", "find a word in the help", FF_TOPIC_HELP, 0},
	{HELP, 'n', 0, "help-find", "find it again", FF_TOPIC_HELP, 0},
	{HELP, 'j', 0, "scroll 1", "scroll down", FF_TOPIC_HELP, 0},
	{HELP, FF_KEY_DOWN, 0, "scroll 1", "scroll down", FF_TOPIC_HELP, 0},
	{HELP, 'k', 0, "scroll -1", "scroll up", FF_TOPIC_HELP, 0},
	{HELP, FF_KEY_UP, 0, "scroll -1", "scroll up", FF_TOPIC_HELP, 0},
	{HELP, ' ', 0, "scroll page", "page down", FF_TOPIC_HELP, 0},
	{HELP, FF_KEY_PGDN, 0, "scroll page", "page down", FF_TOPIC_HELP, 0},
	{HELP, FF_KEY_PGUP, 0, "scroll -page", "page up", FF_TOPIC_HELP, 0},
	{HELP, 'q', 0, "help", "close the help", FF_TOPIC_HELP, 0},
	{HELP, '?', 0, "help", "close the help", FF_TOPIC_HELP, 0},
	{HELP, FF_KEY_ESC, 0, "help", "close the help", FF_TOPIC_HELP, 0},
	{HELP, FF_CTRL('c'), 0, "help", "close the help", FF_TOPIC_HELP, 0},
	/* quitting with unsaved changes */
	{CONFIRM, 'y', 0, "quit!", "quit without saving", FF_TOPIC_CONFIRM, 0},
	{CONFIRM, FF_CTRL('c'), 0, "quit!", "quit without saving", FF_TOPIC_CONFIRM, 0},
	{CONFIRM, 'w', 0, "wq", "save, then quit", FF_TOPIC_CONFIRM, 0},
	{CONFIRM, 'n', 0, "confirm-cancel", "keep editing", FF_TOPIC_CONFIRM, 0},
	{CONFIRM, FF_KEY_ESC, 0, "confirm-cancel", "keep editing", FF_TOPIC_CONFIRM, 0},
};

#define NBINDINGS (int)(sizeof bindings / sizeof bindings[0])

const ff_binding *ff_keymap_at(int i)
{
	return i >= 0 && i < NBINDINGS ? &bindings[i] : NULL;
}

const ff_binding *ff_keymap_find(ff_mode_id mode, int key, int key2)
{
	const ff_binding *shared = NULL;

	for (int i = 0; i < NBINDINGS; i++)
		if ((bindings[i].modes & FF_M(mode)) && bindings[i].key == key &&
		    bindings[i].key2 == key2) {
			if (bindings[i].modes == FF_M(mode))
				return &bindings[i];
			if (!shared)
				shared = &bindings[i];
		}
	return shared;
}

bool ff_keymap_prefix(ff_mode_id mode, int key)
{
	if (ff_keymap_find(mode, key, 0))
		return false;
	for (int i = 0; i < NBINDINGS; i++)
		if ((bindings[i].modes & FF_M(mode)) && bindings[i].key == key && bindings[i].key2)
			return true;
	return false;
}

const char *ff_topic_name(ff_topic t)
{
	static const char *const names[FF_TOPIC__COUNT] = {
		[FF_TOPIC_LESSON] = "The lesson: costs, solving step by step, the field",
		[FF_TOPIC_VIEW] = "Views",
		[FF_TOPIC_MOVE] = "Moving the cursor",
		[FF_TOPIC_EDIT] = "Editing",
		[FF_TOPIC_MARK] = "Shapes from the mark (v, then move)",
		[FF_TOPIC_SIM] = "The crowd (m: simulation mode)",
		[FF_TOPIC_FILE] = "Saving, recording, quitting",
		[FF_TOPIC_PLAY] = "Playing a replay (fieldmarshal replay FILE --tui)",
		[FF_TOPIC_PROMPT] = "At the ':' prompt",
		[FF_TOPIC_HELP] = "In this help",
		[FF_TOPIC_CONFIRM] = "Quitting with unsaved changes",
	};

	return (unsigned)t < FF_TOPIC__COUNT ? names[t] : "?";
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
	else if (key == FF_KEY_TAB)
		snprintf(buf, size, "Tab");
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
