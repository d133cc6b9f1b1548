/*
 * term.c - owns the terminal: curses setup and teardown, colours in three
 * tiers (256, 8, monochrome; NO_COLOR forces monochrome), mouse reporting,
 * key translation to keymap.h codes, and signals.
 *
 * SIGINT, SIGTERM and SIGHUP only set flags (the loop turns them into a
 * C-c key or a clean exit); SIGWINCH is curses' own and arrives as
 * KEY_RESIZE.  Fatal signals restore the terminal and re-raise: endwin() is
 * not async-signal-safe, but a crashed editor that leaves the terminal raw
 * is worse, and htop makes the same choice.
 */
#include <curses.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term.h"
#include "view.h"

static SCREEN *screen;
static bool active;
static volatile sig_atomic_t got_int, got_hup;
static int ncolors;

static void on_flag(int sig)
{
	if (sig == SIGINT)
		got_int = 1;
	else
		got_hup = sig;
}

static void on_fatal(int sig)
{
	if (active) {
		active = false;
		endwin();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_flag;    /* no SA_RESTART: getch returns to the loop */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaction(fatal[i], &sa, NULL);
}

/* Colour pairs: status and error first, then one per (fg, bg) a look
 * needs, made when first drawn, so that an 8-colour terminal's 64 pairs
 * hold what a screen shows.  A pair number must fit COLOR_PAIR()'s 8
 * bits; past those (or the terminal's pairs) a look goes uncoloured. */
#define PAIR_STATUS 1
#define PAIR_ERROR 2
#define PAIRS_MAX 256
static short pair_of[257][257];  /* [fg + 1][bg + 1]: the pair, 0 none yet, -1 none left */
static int npairs;

static void init_colors(void)
{
	const char *nc = getenv("NO_COLOR");

	ncolors = 0;
	npairs = PAIR_ERROR + 1;
	memset(pair_of, 0, sizeof pair_of);
	if (!has_colors() || (nc && *nc) || start_color() == ERR || COLOR_PAIRS < 16)
		return;
	use_default_colors();
	ncolors = COLORS >= 256 ? 256 : 8;
	init_pair(PAIR_STATUS, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_ERROR, COLOR_RED, -1);
}

/* The pair of (FG, BG), made now when there is none; 0 when none is left. */
static short pair_for(short fg, short bg)
{
	short *p = &pair_of[fg + 1][bg + 1];

	if (*p == 0) {
		if (npairs < PAIRS_MAX && npairs < COLOR_PAIRS && init_pair((short)npairs, fg, bg) == OK)
			*p = (short)npairs++;
		else
			*p = -1;
	}
	return *p > 0 ? *p : 0;
}

bool ff_term_open(ff_term_caps *caps, char *err, size_t size)
{
	const char *cs;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, size, "the editor needs a terminal on standard input and output");
		return false;
	}
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		snprintf(err, size, "cannot start curses on terminal '%s'",
			 getenv("TERM") ? getenv("TERM") : "(unset)");
		return false;
	}
	active = true;
	atexit(ff_term_close);
	install_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	init_colors();
	memset(caps, 0, sizeof *caps);
	caps->colors = ncolors;
	cs = nl_langinfo(CODESET);
	caps->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	mouseinterval(0);
	caps->mouse = mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON3_PRESSED |
				BUTTON4_PRESSED | BUTTON5_PRESSED | REPORT_MOUSE_POSITION,
				NULL) != 0;
	curs_set(1);
	return true;
}

bool ff_term_open_file(const char *type, FILE *out, FILE *in, int cols, int rows,
		       ff_term_caps *caps)
{
	screen = newterm(type, out, in);
	if (!screen)
		return false;
	active = true;
	resizeterm(rows, cols);
	noecho();
	init_colors();
	memset(caps, 0, sizeof *caps);
	caps->colors = ncolors;
	caps->utf8 = true;
	return true;
}

void ff_term_close(void)
{
	if (!active)
		return;
	active = false;
	mousemask(0, NULL);
	endwin();
	delscreen(screen);
	screen = NULL;
}

int ff_term_hangup(void)
{
	return got_hup;
}

void ff_term_size(int *cols, int *rows)
{
	*cols = COLS;
	*rows = LINES;
}

static void read_mouse(ff_term_event *ev)
{
	MEVENT me;

	ev->key = FF_KEY_NONE;
	if (getmouse(&me) != OK)
		return;
	ev->key = FF_KEY_MOUSE;
	ev->mx = me.x, ev->my = me.y, ev->button = 1;
	if (me.bstate & BUTTON4_PRESSED)
		ev->mouse = FF_MOUSE_WHEEL_UP;
	else if (me.bstate & BUTTON5_PRESSED)
		ev->mouse = FF_MOUSE_WHEEL_DOWN;
	else if (me.bstate & (BUTTON1_PRESSED | BUTTON3_PRESSED)) {
		ev->mouse = FF_MOUSE_PRESS;
		ev->button = (me.bstate & BUTTON3_PRESSED) ? 3 : 1;
	} else if (me.bstate & BUTTON1_RELEASED)
		ev->mouse = FF_MOUSE_RELEASE;
	else if (me.bstate & REPORT_MOUSE_POSITION)
		ev->mouse = FF_MOUSE_DRAG;
	else
		ev->key = FF_KEY_NONE;
}

static int translate(int k)
{
	switch (k) {
	case KEY_UP: return FF_KEY_UP;
	case KEY_DOWN: return FF_KEY_DOWN;
	case KEY_LEFT: return FF_KEY_LEFT;
	case KEY_RIGHT: return FF_KEY_RIGHT;
	case KEY_SR: return FF_KEY_SUP;
	case KEY_SF: return FF_KEY_SDOWN;
	case KEY_SLEFT: return FF_KEY_SLEFT;
	case KEY_SRIGHT: return FF_KEY_SRIGHT;
	case KEY_HOME: return FF_KEY_HOME;
	case KEY_END: return FF_KEY_END;
	case KEY_PPAGE: return FF_KEY_PGUP;
	case KEY_NPAGE: return FF_KEY_PGDN;
	case KEY_BACKSPACE: return FF_KEY_BACKSPACE;
	case KEY_DC: return FF_KEY_DELETE;
	case KEY_RESIZE: return FF_KEY_RESIZE;
	case KEY_ENTER: return FF_KEY_ENTER;
	case '\r': return FF_KEY_ENTER;
	default: return k >= 0 && k < 256 ? k : FF_KEY_NONE;
	}
}

void ff_term_read(int timeout_ms, ff_term_event *ev)
{
	int k;

	memset(ev, 0, sizeof *ev);
	ev->key = FF_KEY_NONE;
	if (got_int) {
		got_int = 0;
		ev->key = FF_CTRL('c');
		return;
	}
	if (got_hup)
		return;
	timeout(timeout_ms);
	k = getch();
	if (k == ERR) {
		if (got_int) {
			got_int = 0;
			ev->key = FF_CTRL('c');
		}
		return;
	}
	if (k == KEY_MOUSE)
		read_mouse(ev);
	else
		ev->key = translate(k);
}

unsigned long ff_term_attr(int tier, int kind, int hue, bool cursor, bool selected)
{
	unsigned bits = ff_view_attrs(tier, kind, ncolors != 0, cursor, selected);
	attr_t a = A_NORMAL;
	short fg, bg;

	if (ncolors) {
		ff_view_colors(tier, kind, hue, ncolors == 256, &fg, &bg);
		a = COLOR_PAIR(pair_for(fg, bg));
	}

	if (bits & FF_ATTR_BOLD)
		a |= A_BOLD;
	if (bits & FF_ATTR_REVERSE)
		a |= A_REVERSE;
	if (bits & FF_ATTR_UNDERLINE)
		a |= A_UNDERLINE;
	if (bits & FF_ATTR_DIM)
		a |= A_DIM;
#ifdef A_ITALIC
	if (bits & FF_ATTR_ITALIC)
		a |= A_ITALIC;
#endif
	return a;
}

unsigned long ff_term_status_attr(void)
{
	return ncolors ? COLOR_PAIR(PAIR_STATUS) : A_REVERSE;
}

unsigned long ff_term_error_attr(void)
{
	return ncolors ? COLOR_PAIR(PAIR_ERROR) | A_BOLD : A_BOLD;
}
