/*
 * draw.c - the curses side of the view: cells, status and message lines,
 * the help screen and the too-small notice, from view.c's text and styles.
 * Reads the controller only (const); the one write is the ff_draw memo of
 * what is on screen.
 *
 * Frugal over SSH: the terminal's own cursor marks the cursor cell (as in
 * vim), so moving it one cell sends only the status line's changed
 * characters and a cursor position, not two cells with their colour
 * changes; curses sends only characters that changed.
 */
#include <curses.h>
#include <string.h>

#include "draw.h"
#include "term.h"
#include "view.h"

static void put_cell(const ff_ctl *c, int pane, int x, int y)
{
	int cw = ff_ctl_cell_width(c->zoom);
	int sx = ff_ctl_pane_x(c, pane) + (x - c->vx) * cw, sy = y - c->vy;
	ff_cell_look look;

	if (x < c->vx || sy < 0 || sy >= ff_ctl_view_h(c) || x - c->vx >= ff_ctl_view_w(c) ||
	    !ff_level_in(c->s->level, x, y))
		return;
	ff_view_cell_pane(c, pane, x, y, &look);
	attrset((attr_t)ff_term_attr(look.tier, look.kind, false, look.selected));
	mvaddstr(sy, sx, look.text);
}

static void draw_grid(const ff_ctl *c)
{
	const ff_level *l = c->s->level;
	int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c), cw = ff_ctl_cell_width(c->zoom);

	for (int sy = 0; sy < vh; sy++) {
		int y = c->vy + sy;

		move(sy, 0);
		for (int p = 0; p < ff_ctl_panes(c); p++) {
			if (p > 0) {
				/* the right pane starts after a separator column */
				attrset(A_NORMAL);
				mvaddch(sy, ff_ctl_pane_x(c, p) - 1, '|');
			}
			if (y < l->h)
				for (int x = c->vx; x < c->vx + vw && x < l->w; x++)
					put_cell(c, p, x, y);
			attrset(A_NORMAL);
			if (p == 0 && c->split) {
				/* blank the rest of the left pane, up to the separator */
				int n = l->w - c->vx < vw ? l->w - c->vx : vw;

				for (int sx = (y < l->h ? n : 0) * cw; sx < ff_ctl_pane_x(c, 1) - 1; sx++)
					mvaddch(sy, sx, ' ');
			}
		}
		clrtoeol();
	}
}

static void draw_help(const ff_ctl *c)
{
	int n = ff_view_help_lines(c), vh = ff_ctl_view_h(c);
	char line[512];

	attrset(A_NORMAL);
	for (int sy = 0; sy < vh; sy++) {
		move(sy, 0);
		clrtoeol();
		if (c->help_top + sy < n) {
			ff_view_help_line(c, c->help_top + sy, line, sizeof line);
			addnstr(line, c->cols);
		}
	}
}

/* TEXT on ROW, cut at COLS; ATTR other than normal fills the row.  A row
 * written to its last column leaves the cursor on the next row, which is
 * then neither filled nor cleared. */
static void draw_line(int row, const char *text, attr_t attr, int cols)
{
	int n = (int)strlen(text);

	n = n < cols ? n : cols;
	attrset(attr);
	move(row, 0);
	addnstr(text, n);
	for (int x = n; attr != A_NORMAL && x < cols - 1; x++)
		addch(' ');
	if (n < cols)
		clrtoeol();
	attrset(A_NORMAL);
}

static void too_small(const ff_ctl *c)
{
	char msg[160];
	int len;

	len = snprintf(msg, sizeof msg, "terminal too small: %dx%d, needs %dx%d",
		       c->cols, c->rows, FF_MIN_COLS, FF_MIN_ROWS);
	erase();
	attrset(A_BOLD);
	mvaddnstr(c->rows / 2 - 1, len < c->cols ? (c->cols - len) / 2 : 0, msg, c->cols);
	attrset(A_NORMAL);
	len = (int)strlen("enlarge the window; q quits");
	mvaddnstr(c->rows / 2, len < c->cols ? (c->cols - len) / 2 : 0,
		  "enlarge the window; q quits", c->cols);
	/* the message (the quit question) on the lines below, wrapped */
	len = (int)strlen(c->msg);
	for (int i = 0, y = c->rows / 2 + 1; i < len && y < c->rows && c->cols > 0; y++) {
		mvaddnstr(y, 0, c->msg + i, c->cols);
		i += c->cols;
	}
}

/* The columns a prompt line is scrolled by, so that its cursor (after
 * the ':' and POS characters) stays on screen. */
static int prompt_scroll(const ff_ctl *c)
{
	const int at = 1 + c->prompt.pos;

	return at < c->cols ? 0 : at - c->cols + 1;
}

/* True when the message needs two lines: the status line then moves up
 * over the grid's last row until the message is gone. */
static bool two_lines(const ff_ctl *c)
{
	return c->mode != FF_MODE_PROMPT && c->cols >= 2 && c->rows >= 4 &&
	       (int)strlen(c->msg) > c->cols;
}

/* The message line, or the two last lines for a long message, broken at a
 * space. */
static void draw_message(const ff_ctl *c, char *text, size_t size)
{
	const attr_t attr = c->msg_error && c->mode != FF_MODE_PROMPT ?
			    (attr_t)ff_term_error_attr() : A_NORMAL;
	char first[512];
	int cut;

	ff_view_message(c, text, size);
	if (c->mode == FF_MODE_PROMPT) {
		/* a long line scrolls: the part around the cursor shows */
		draw_line(c->rows - 1, text + prompt_scroll(c), attr, c->cols);
		return;
	}
	if (!two_lines(c)) {
		draw_line(c->rows - 1, text, attr, c->cols);
		return;
	}
	for (cut = c->cols; cut > c->cols / 2 && text[cut] != ' '; cut--)
		;
	if (cut == c->cols / 2)
		cut = c->cols;
	snprintf(first, sizeof first, "%.*s", cut, text);
	draw_line(c->rows - 2, first, attr, c->cols);
	draw_line(c->rows - 1, text + cut + (text[cut] == ' '), attr, c->cols);
}

static void place_cursor(const ff_ctl *c)
{
	if (c->mode == FF_MODE_PROMPT)
		move(c->rows - 1, 1 + c->prompt.pos - prompt_scroll(c));
	else if (c->mode == FF_MODE_HELP)
		move(c->rows - 1, 0);
	else
		move(c->cy - c->vy, (c->cx - c->vx) * ff_ctl_cell_width(c->zoom));
}

void ff_draw_screen(const ff_ctl *c, ff_draw *d, unsigned ui)
{
	const bool two = two_lines(c);
	char text[512];

	if (ff_ctl_too_small(c)) {
		too_small(c);
		d->valid = false;
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	if (!d->valid || d->vx != c->vx || d->vy != c->vy || d->zoom != c->zoom ||
	    d->split != c->split || d->two != two)
		ui |= FF_UI_GRID;
	if (!d->valid || (ui & FF_UI_CLEAR)) {
		erase();
		ui = FF_UI_ALL;
	}
	if (ui & FF_UI_GRID)
		c->mode == FF_MODE_HELP ? draw_help(c) : draw_grid(c);
	/* FF_UI_CURSOR needs no cell repainted: place_cursor() moves it */
	if (ui & (FF_UI_STATUS | FF_UI_GRID | FF_UI_MSG)) {
		ff_view_status(c, text, sizeof text);
		draw_line(c->rows - 2 - two, text, (attr_t)ff_term_status_attr(), c->cols);
	}
	if (ui & (FF_UI_MSG | FF_UI_GRID))
		draw_message(c, text, sizeof text);
	*d = (ff_draw){true, c->cx, c->cy, c->vx, c->vy, c->zoom, c->split, two};
	place_cursor(c);
	wnoutrefresh(stdscr);
	doupdate();
}
