/*
 * prompt.h - the ':' prompt's line editor and its history.  Pure state, no
 * terminal: the controller feeds it keys and reads back the text and the
 * cursor position.
 *
 * Invariants: 0 <= pos <= len < FF_PROMPT_MAX; text[len] == '\0'; history
 * holds at most FF_PROMPT_HISTORY lines, oldest first, no two adjacent equal.
 */
#ifndef FF_TUI_PROMPT_H
#define FF_TUI_PROMPT_H

#include <stdbool.h>

#define FF_PROMPT_MAX 256
#define FF_PROMPT_HISTORY 100

typedef struct ff_prompt {
	char text[FF_PROMPT_MAX];
	int len, pos;
	char history[FF_PROMPT_HISTORY][FF_PROMPT_MAX];
	int nhistory;
	int browse;              /* history index being shown; nhistory: the new line */
	char saved[FF_PROMPT_MAX]; /* the new line while browsing */
} ff_prompt;

/* Empties the line and history. */
void ff_prompt_init(ff_prompt *p);
/* Starts a new line holding TEXT (may be NULL), cursor at its end. */
void ff_prompt_open(ff_prompt *p, const char *text);
/* Edits the line with KEY (printable characters insert; Backspace, Delete,
 * Left, Right, Home, End, C-a, C-e, C-u, C-k, C-w edit).  False when KEY is
 * not an editing key. */
bool ff_prompt_key(ff_prompt *p, int key);
/* Shows the previous (DIR < 0) or next history line. */
void ff_prompt_history(ff_prompt *p, int dir);
/* Appends the current line to the history (blank lines and repeats of the
 * last line are not kept). */
void ff_prompt_remember(ff_prompt *p);

#endif
