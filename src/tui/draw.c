/*
 * draw.c - the curses side of the view: cells, pane labels, status and
 * message lines, the help screen and the too-small notice, from view.c's
 * text and styles.  Reads the controller only (const); the one write is
 * the ff_draw memo of what is on screen.
 *
 * Frugal over SSH: curses sends only characters that changed, and a
 * cursor move repaints two cells (the cursor is a reverse-video cell, seen
 * on a projector, and the terminal's own cursor sits on it too).
 */
#include <curses.h>
#include <string.h>

#include "draw.h"
#include "term.h"
#include "view.h"

/* Paints level cell (X, Y) in every pane where it is in view. */
static void put_cell(const ff_ctl *c, int x, int y)
{
	const int cw = ff_ctl_cell_width(c->view.zoom);
	ff_cell_look look;

	if (x < c->view.vx || y < c->view.vy || x - c->view.vx >= ff_ctl_view_w(c) ||
	    y - c->view.vy >= ff_ctl_view_h(c) || !ff_level_in(c->s->level, x, y))
		return;
	for (int p = 0; p < ff_ctl_panes(c); p++) {
		ff_view_cell_pane(c, p, x, y, &look);
		attrset((attr_t)ff_term_attr(look.tier, look.kind, look.hue, look.cursor,
					     look.selected));
		mvaddstr(ff_ctl_pane_y(c, p) + y - c->view.vy,
			 ff_ctl_pane_x(c, p) + (x - c->view.vx) * cw, look.text);
	}
	attrset(A_NORMAL);
}

static void draw_labels(const ff_ctl *c)
{
	char text[256];

	if (!c->split.on)
		return;
	attrset(A_BOLD);
	for (int p = 0; p < ff_ctl_panes(c); p++) {
		int width = ff_ctl_stacked(c) ? c->cols :
			    ff_ctl_view_w(c) * ff_ctl_cell_width(c->view.zoom);

		ff_view_pane_label(c, p, text, sizeof text);
		mvaddnstr(ff_ctl_pane_y(c, p) - 1, ff_ctl_pane_x(c, p), text, width);
	}
	attrset(A_NORMAL);
}

static void draw_grid(const ff_ctl *c)
{
	const ff_level *l = c->s->level;
	const int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);

	/* the grid area empty first: curses sends only what then differs */
	for (int sy = 0; sy < c->rows - 2; sy++) {
		move(sy, 0);
		clrtoeol();
	}
	draw_labels(c);
	if (c->split.on && !ff_ctl_stacked(c))
		for (int sy = 0; sy < vh + 1; sy++)
			mvaddch(sy, ff_ctl_pane_x(c, 1) - 1, '|');
	for (int y = c->view.vy; y < c->view.vy + vh && y < l->h; y++)
		for (int x = c->view.vx; x < c->view.vx + vw && x < l->w; x++)
			put_cell(c, x, y);
}

static void draw_help(const ff_ctl *c)
{
	int n = ff_view_help_lines(c), vh = c->rows - 2;
	char line[512];

	attrset(A_NORMAL);
	for (int sy = 0; sy < vh; sy++) {
		move(sy, 0);
		clrtoeol();
		if (c->help.top + sy < n) {
			ff_view_help_line(c, c->help.top + sy, line, sizeof line);
			addnstr(line, c->cols);
		}
	}
}

/* TEXT on ROW, cut at COLS; ATTR other than normal fills the row.  A row
 * written to its last column leaves the cursor on the next row, which is
 * then neither filled nor cleared. */
static void draw_line(int row, const char *text, attr_t attr, int cols)
{
	int n = 0, w = 0;

	/* the bytes of the first COLS columns: a column per UTF-8 character */
	while (text[n] && w < cols) {
		for (n++; ((unsigned char)text[n] & 0xc0) == 0x80; n++)
			;
		w++;
	}
	attrset(attr);
	move(row, 0);
	addnstr(text, n);
	for (int x = w; attr != A_NORMAL && x < cols - 1; x++)
		addch(' ');
	if (w < cols)
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

/* True when the message needs two lines: it then takes the grid's last
 * row too, and the status line moves up above it, never under it. */
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
	else if (ff_view_shows_help(c))
		move(c->rows - 1, 0);
	else
		move(ff_ctl_pane_y(c, 0) + c->view.cy - c->view.vy,
		     (c->view.cx - c->view.vx) * ff_ctl_cell_width(c->view.zoom));
}

void ff_draw_screen(const ff_ctl *c, ff_draw *d, unsigned ui)
{
	const bool two = two_lines(c), help = ff_view_shows_help(c);
	char text[512];

	if (ff_ctl_too_small(c)) {
		too_small(c);
		d->valid = false;
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	if (!d->valid || d->vx != c->view.vx || d->vy != c->view.vy ||
	    d->zoom != c->view.zoom || d->split != c->split.on || d->two != two ||
	    d->help != help)
		ui |= FF_UI_GRID;
	if (!d->valid || (ui & FF_UI_CLEAR)) {
		erase();
		ui = FF_UI_ALL;
	}
	if (ui & FF_UI_GRID) {
		if (help)
			draw_help(c);
		else
			draw_grid(c);
	} else if ((ui & FF_UI_CURSOR) && !help) {
		put_cell(c, d->cx, d->cy);       /* the old cursor cell, then the new */
		put_cell(c, c->view.cx, c->view.cy);
	}
	if (ui & (FF_UI_STATUS | FF_UI_GRID | FF_UI_MSG)) {
		ff_view_status(c, text, sizeof text);
		draw_line(c->rows - 2 - two, text, (attr_t)ff_term_status_attr(), c->cols);
	}
	if (ui & (FF_UI_MSG | FF_UI_GRID))
		draw_message(c, text, sizeof text);
	*d = (ff_draw){true, c->view.cx, c->view.cy, c->view.vx, c->view.vy, c->view.zoom,
		       c->split.on, two, help};
	place_cursor(c);
	wnoutrefresh(stdscr);
	doupdate();
}
