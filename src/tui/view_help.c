/*
 * view_help.c - the help screen, generated for the screen's width from the
 * keymap (one section per topic, the lesson's keys first; keys that run
 * the same command share a line), the glyph table, and the two command
 * tables (the editor's and the level's).  A line too long for the screen
 * goes on below, indented, so nothing is cut at 80 columns.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/glyph.h"
#include "ctl_int.h"
#include "view.h"

typedef struct gen {
	int want, n;             /* the line wanted, lines so far */
	char *buf;
	size_t size;
	int cols;
	ff_buf *all;             /* every line, when not NULL */
} gen;

static void line(gen *g, const char *text)
{
	if (g->all)
		ff_buf_printf(g->all, "%s\n", text);
	if (g->n++ == g->want)
		snprintf(g->buf, g->size, "%s", text);
}

/* Screen columns of UTF-8 TEXT. */
static int columns(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += ((unsigned char)*text & 0xc0) != 0x80;
	return n;
}

/* HEAD (the first INDENT columns, padded) then TEXT, and TAIL after it
 * when it fits, else on a line of its own indented by INDENT; TEXT itself
 * breaks when too long at a blank (dropped) or after a '|' (kept: a usage
 * such as layer's names has no blank for 100 columns). */
static void item(gen *g, const char *head, int indent, const char *text, const char *tail)
{
	char out[512];
	int width = g->cols - 1 - indent;
	const char *p = text;

	if (width < 20)
		width = 20;
	for (bool first = true; first || *p; first = false) {
		int n = (int)strlen(p);

		if (n > width) {
			for (n = width; n > width / 2 && p[n] != ' ' && p[n - 1] != '|'; n--)
				;
			if (n == width / 2)
				n = width;
		}
		const int pad = indent - columns(first ? head : "");

		snprintf(out, sizeof out, "%s%*s%.*s", first ? head : "", pad > 0 ? pad : 1, "", n,
			 p);
		p += n + (p[n] == ' ');
		if (!*p && tail && (int)(strlen(out) + 2 + strlen(tail)) < g->cols) {
			snprintf(out + strlen(out), sizeof out - strlen(out), "  %s", tail);
			tail = NULL;
		}
		line(g, out);
	}
	if (tail) {
		snprintf(out, sizeof out, "%*s%s", indent, "", tail);
		line(g, out);
	}
}

static bool same_entry(const ff_binding *a, const ff_binding *b)
{
	return a->modes == b->modes && a->topic == b->topic && !strcmp(a->run, b->run);
}

static void keys_of(const ff_binding *b, int from, char *keys, size_t size)
{
	const ff_binding *o;
	char name[16], name2[16];

	keys[0] = '\0';
	for (int j = from; (o = ff_keymap_at(j)); j++)
		if (same_entry(o, b)) {
			size_t k = strlen(keys);

			ff_key_name(o->key, name, sizeof name);
			name2[0] = '\0';
			if (o->key2)
				ff_key_name(o->key2, name2, sizeof name2);
			snprintf(keys + k, size - k, "%s%s%s", k ? " " : "", name, name2);
		}
}

static void topic(gen *g, ff_topic t)
{
	const ff_binding *b;
	char keys[64], head[72], cmd[FF_PROMPT_MAX + 2];

	line(g, "");
	line(g, ff_topic_name(t));
	for (int i = 0; (b = ff_keymap_at(i)); i++) {
		bool first = true;

		if (b->topic != t)
			continue;
		for (int j = 0; j < i; j++)
			if (same_entry(ff_keymap_at(j), b))
				first = false;
		if (!first)
			continue;
		keys_of(b, i, keys, sizeof keys);
		snprintf(head, sizeof head, "  %s", keys);
		snprintf(cmd, sizeof cmd, ":%s", b->run);
		item(g, head, 16, b->help, cmd);
	}
}

static void glyphs(gen *g, bool utf8)
{
	static const char *const dirs[8] = {"E", "S", "W", "N", "SE", "SW", "NW", "NE"};
	char text[256];
	size_t n = 0;

	line(g, "");
	line(g, "What the cells show (every view of a level uses the same glyphs)");
	for (int i = 0; i < FF_GLYPH__COUNT; i++) {
		char head[16];

		snprintf(head, sizeof head, "  %s", ff_glyph((ff_glyph_id)i, utf8));
		item(g, head, 16, ff_glyph_meaning((ff_glyph_id)i), NULL);
	}
	for (int d = 0; d < 8; d++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s%s %s", d ? ", " : "",
				      ff_glyph_arrow(d, utf8), dirs[d]);
	item(g, "  arrows", 16, text, NULL);
	n = 0;
	for (int d = 0; d < 8; d++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s%s %s", d ? ", " : "",
				      ff_glyph_from(d, utf8), dirs[d]);
	snprintf(text + n, sizeof text - n, "%s", utf8 ? "" : " (in their own colour, italic)");
	item(g, "  came-from", 16, text, NULL);
	item(g, "  colours", 16, "the terrain's cost, cheap to dear, under every mark; walls "
	     "grey; the cursor and a selection in reverse video", NULL);
}

/* The crowd's marks: the groups' letters, the counting lines, and the
 * legends of the density and speed layers as C draws them. */
static void crowd(gen *g, const ff_ctl *c)
{
	const bool utf8 = c->view.utf8;
	char text[256];
	size_t n = 0;

	for (int k = 1; k < FF_GROUPS_MAX; k++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", k > 1 ? " " : "",
				      ff_glyph_group(k, utf8));
	snprintf(text + n, sizeof text - n, ": the agents of the level's named groups, in the "
		 "order it made them (several groups in a cell: their number)");
	item(g, "  groups", 16, text, NULL);
	snprintf(text, sizeof text, "%s %s %s %s: a counting line (sim line)",
		 ff_glyph_line(0, 1, utf8), ff_glyph_line(1, 0, utf8), ff_glyph_line(1, 1, utf8),
		 ff_glyph_line(1, -1, utf8));
	item(g, "  lines", 16, text, NULL);
	ff_view_legend(c, FF_LAYER_DENSITY, text, sizeof text);
	item(g, "  density", 16, text, NULL);
	ff_view_legend(c, FF_LAYER_SPEED, text, sizeof text);
	item(g, "  speed", 16, text, NULL);
}

/* Generates the help; fills G->buf with line G->want and counts them. */
static void generate(gen *g, const ff_ctl *c)
{
	const bool utf8 = c->view.utf8;
	const ff_ui_cmd *u;
	const ff_cmd_info *ci;
	char head[512];          /* as long as item() lays out: 'sim' is 150 */

	line(g, "fieldmarshal editor: keys and commands (q closes, / finds, n again, j k scroll)");
	for (int t = 0; t < FF_TOPIC__COUNT; t++)
		topic(g, (ff_topic)t);
	glyphs(g, utf8);
	crowd(g, c);
	line(g, "");
	line(g, "Editor commands (type after ':'; Tab completes)");
	for (int i = 0; (u = ff_ui_cmd_at(i)); i++) {
		if (u->flags & FF_UI_CMD_INTERNAL)
			continue;
		snprintf(head, sizeof head, "%s%s%s%s%s%s", u->name, u->alias ? " (" : "",
			 u->alias ? u->alias : "", u->alias ? ")" : "", u->args[0] ? " " : "",
			 u->args);
		item(g, "", 2, head, NULL);
		item(g, "", 6, u->summary, NULL);
	}
	line(g, "");
	line(g, "Level commands (type after ':'; docs/commands.md)");
	for (int i = 0; (ci = ff_cmd_info_at(i)); i++) {
		snprintf(head, sizeof head, "%s %s", ci->name, ci->args);
		item(g, "", 2, head, NULL);
		item(g, "", 6, ci->summary, NULL);
	}
}

int ff_view_help_lines(const ff_ctl *c)
{
	gen g = {-1, 0, NULL, 0, c->cols, NULL};

	generate(&g, c);
	return g.n;
}

void ff_view_help_line(const ff_ctl *c, int i, char *buf, size_t size)
{
	gen g = {i, 0, buf, size, c->cols, NULL};

	buf[0] = '\0';
	generate(&g, c);
}

char *ff_view_help(const ff_ctl *c, int *n)
{
	ff_buf b = FF_BUF_INIT;
	gen g = {-1, 0, NULL, 0, c->cols, &b};

	generate(&g, c);
	*n = g.n;
	return ff_buf_take(&b, NULL);
}
