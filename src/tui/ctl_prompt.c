/*
 * ctl_prompt.c - the ':' prompt (opening it, running its line, history;
 * Tab is ctl_complete.c) and the help screen over it: scrolling, and '/'
 * to find a word, which opens the prompt on top of the help and returns
 * there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctl_int.h"
#include "view.h"

unsigned ff_ui_prompt(ff_ctl *c, int argc, char **argv)
{
	char text[FF_PROMPT_MAX] = "";
	size_t n = 0;

	/* the rest of the line, words joined by one blank, keeps a trailing blank */
	for (int i = 1; i < argc; i++)
		n += (size_t)snprintf(text + n, n < sizeof text ? sizeof text - n : 0, "%s ",
				      argv[i]);
	(void)n;
	ff_prompt_open(&c->prompt, text);
	c->msg[0] = '\0';
	return ff_ctl_set_mode(c, FF_MODE_PROMPT) | FF_UI_MSG;
}

unsigned ff_ui_prompt_run(ff_ctl *c, int argc, char **argv)
{
	char line[FF_PROMPT_MAX];

	(void)argc, (void)argv;
	memcpy(line, c->prompt.text, sizeof line);
	ff_prompt_remember(&c->prompt);
	c->msg[0] = '\0';
	return ff_ctl_set_mode(c, c->prompt_from) | FF_UI_MSG | ff_ctl_run(c, line);
}

unsigned ff_ui_prompt_cancel(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->msg[0] = '\0';
	return ff_ctl_set_mode(c, c->prompt_from) | FF_UI_MSG;
}

unsigned ff_ui_prompt_history(ff_ctl *c, int argc, char **argv)
{
	int dir;

	if (argc != 2 || !ff_ctl_parse_int(argv[1], &dir))
		return ff_ctl_usage(c, argv[0]);
	ff_prompt_history(&c->prompt, dir);
	return FF_UI_MSG;
}

/* --- the help screen ----------------------------------------------------- */

static int help_page(const ff_ctl *c)
{
	return c->rows - 2;
}

unsigned ff_ui_help(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return ff_ctl_set_mode(c, c->mode == FF_MODE_HELP ? ff_ctl_grid_mode(c) : FF_MODE_HELP);
}

unsigned ff_ui_scroll(ff_ctl *c, int argc, char **argv)
{
	int page = help_page(c), n, max = ff_view_help_lines(c) - page;

	if (argc == 2 && !strcmp(argv[1], "page"))
		n = page;
	else if (argc == 2 && !strcmp(argv[1], "-page"))
		n = -page;
	else if (argc != 2 || !ff_ctl_parse_int(argv[1], &n))
		return ff_ctl_usage(c, argv[0]);
	c->help.top = ff_ctl_clamp(c->help.top + n, 0, max > 0 ? max : 0);
	return FF_UI_GRID;
}

/* True when LINE holds WHAT, letter case aside. */
static bool holds(const char *line, const char *what)
{
	size_t n = strlen(what);

	for (; *line; line++)
		if (!strncasecmp(line, what, n))
			return true;
	return false;
}

unsigned ff_ui_help_find(ff_ctl *c, int argc, char **argv)
{
	char *text, *at[1024];
	int n;

	if (argc > 1) {
		size_t k = 0;

		/* the words typed, as one text */
		c->help.find[0] = '\0';
		for (int i = 1; i < argc; i++)
			k += (size_t)snprintf(c->help.find + k, k < sizeof c->help.find ?
					      sizeof c->help.find - k : 0, "%s%s", i > 1 ? " " : "",
					      argv[i]);
	}
	if (!c->help.find[0])
		return ff_ctl_usage(c, argv[0]);
	if (!(text = ff_view_help(c, &n))) {
		ff_ctl_say(c, true, "out of memory");
		return FF_UI_MSG;
	}
	/* the lines in place, each ending at its newline */
	n = 0;
	for (char *p = text, *nl; n < 1024 && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		at[n++] = p;
	}
	/* from the line after the top one, round to the start */
	for (int k = 1; k <= n; k++) {
		int i = (c->help.top + k) % n;

		if (holds(at[i], c->help.find)) {
			c->help.top = i;
			ff_ctl_say(c, false, "'%s' on line %d of %d; n finds it again", c->help.find,
				   i + 1, n);
			free(text);
			return FF_UI_GRID | FF_UI_MSG;
		}
	}
	free(text);
	ff_ctl_say(c, true, "'%s' is not in the help", c->help.find);
	return FF_UI_MSG;
}
