/*
 * keymap.h - the editor's key bindings: one table binding keys, per mode, to
 * command text.  A binding's text is either a core command (docs/commands.md)
 * or an editor command (ctl_cmd.c), with {x} {y} and friends substituted from
 * the editor state before it runs, exactly as if typed at the ':' prompt.  The
 * help screen is generated from the same table, one section per topic.
 *
 * Keys are ints: printable ASCII as itself, control keys as FF_CTRL('r'),
 * and the FF_KEY_* codes below for keys with no character.  Only term.c
 * knows the curses codes; it translates them to these, so the controller
 * and its tests need no terminal.
 */
#ifndef FF_TUI_KEYMAP_H
#define FF_TUI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#define FF_CTRL(c) ((c) & 0x1f)
#define FF_KEY_ESC 27
#define FF_KEY_ENTER '\n'
#define FF_KEY_TAB '\t'

enum {
	FF_KEY_UP = 0x1000,
	FF_KEY_DOWN,
	FF_KEY_LEFT,
	FF_KEY_RIGHT,
	FF_KEY_SUP,          /* shifted arrows */
	FF_KEY_SDOWN,
	FF_KEY_SLEFT,
	FF_KEY_SRIGHT,
	FF_KEY_HOME,
	FF_KEY_END,
	FF_KEY_PGUP,
	FF_KEY_PGDN,
	FF_KEY_BACKSPACE,
	FF_KEY_DELETE,
	FF_KEY_RESIZE,       /* the terminal changed size */
	FF_KEY_MOUSE,        /* a mouse event (see ff_ctl_mouse) */
	FF_KEY_NONE = -1     /* input timed out */
};

/* The editor's modes; a binding applies in every mode of its mask. */
typedef enum ff_mode_id {
	FF_MODE_NORMAL,      /* move, paint, solve */
	FF_MODE_SELECT,      /* a mark is set: shapes from the mark to the cursor */
	FF_MODE_PROMPT,      /* typing a command after ':' */
	FF_MODE_HELP,        /* the help screen */
	FF_MODE_CONFIRM,     /* quitting with unsaved changes */
	FF_MODE_SIM,         /* the crowd: run, pause, tick, spawn; walls still paint */
	FF_MODE_PLAY,        /* playing a replay log back (replay --tui) */
	FF_MODE__COUNT
} ff_mode_id;

#define FF_M(m) (1u << (m))
/* Modes that edit the level (history, solving, the prompt, saving). */
#define FF_M_GRID (FF_M(FF_MODE_NORMAL) | FF_M(FF_MODE_SELECT) | FF_M(FF_MODE_SIM))
/* Modes that show the grid: moving, zoom, layers, help. */
#define FF_M_VIEW (FF_M_GRID | FF_M(FF_MODE_PLAY))

/* The help screen's sections, in the order it shows them: the lesson's
 * keys first (docs/teaching.md), one section per topic. */
typedef enum ff_topic {
	FF_TOPIC_LESSON,     /* solving step by step, numbers and arrows */
	FF_TOPIC_VIEW,       /* zoom, layers, split view */
	FF_TOPIC_MOVE,       /* the cursor */
	FF_TOPIC_EDIT,       /* painting, goals, history */
	FF_TOPIC_MARK,       /* shapes from the mark to the cursor */
	FF_TOPIC_SIM,        /* the crowd */
	FF_TOPIC_FILE,       /* saving, recording, quitting */
	FF_TOPIC_PLAY,       /* replay --tui */
	FF_TOPIC_PROMPT,     /* the ':' prompt */
	FF_TOPIC_HELP,       /* this help */
	FF_TOPIC_CONFIRM,    /* the quit question */
	FF_TOPIC__COUNT
} ff_topic;

/* Binding flags. */
enum {
	FF_BIND_ENDS_MARK = 1 << 0   /* a shape from the mark: the mark goes
					once it is drawn */
};

typedef struct ff_binding {
	unsigned modes;      /* FF_M() mask */
	int key;
	int key2;            /* a second key (ZZ), 0 for none */
	const char *run;     /* command text with {placeholders} */
	const char *help;    /* one line for the help screen */
	ff_topic topic;
	unsigned flags;      /* FF_BIND_* */
} ff_binding;

/* Binding I of the table, or NULL past the end. */
const ff_binding *ff_keymap_at(int i);
/* The binding for KEY (then KEY2, or 0 for a single key) in MODE, or
 * NULL.  A binding made for MODE alone wins over one shared with other
 * modes, so a mode can give a shared key its own meaning ('.' ticks in
 * SIM, steps the solver elsewhere). */
const ff_binding *ff_keymap_find(ff_mode_id mode, int key, int key2);
/* True when KEY starts a two-key binding in MODE (and is no key alone). */
bool ff_keymap_prefix(ff_mode_id mode, int key);
/* The title of TOPIC's section. */
const char *ff_topic_name(ff_topic t);
/* Writes a readable name of KEY ("h", "Space", "C-r", "Up") into BUF. */
void ff_key_name(int key, char *buf, size_t size);
/* The name of MODE as the status line shows it ("EDIT", "SELECT", ...). */
const char *ff_mode_name(ff_mode_id mode);

#endif
