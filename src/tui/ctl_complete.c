/*
 * ctl_complete.c - Tab at the ':' prompt: completes the word before the
 * cursor from the command tables.  The first word is a command (editor or
 * level); later words come from the command's syntax, the same text the
 * help shows: literal words ("in|out|0|1|2"), and for the placeholders
 * TERRAIN (the palette and 'wall'), PARAM (the level parameters), GROUP
 * (the level's groups), FILE, LEVEL (stored levels) and db:NAME (stored
 * replays), the last three through the program's list hook.
 *
 * A syntax is variants separated by " | "; a variant is words, each
 * "[optional]" or not, each alternatives separated by '|'.  The words typed
 * so far are matched against each variant (optional words may be skipped,
 * a placeholder matches any word), and the words that may come next are
 * the candidates.  One candidate completes the word; several extend it to
 * their common beginning and are listed in the message line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_int.h"

#define MAX_CANDS 256
#define MAX_TOKENS 16
#define MAX_WORDS 12
#define WORD 96

typedef struct cands {
	char w[MAX_CANDS][WORD];
	int n;
	char prefix[WORD];
} cands;

/* Adds WORD when it starts with the prefix (a list hook's callback). */
static void add(void *arg, const char *word)
{
	cands *cs = arg;

	if (cs->n == MAX_CANDS || strncmp(word, cs->prefix, strlen(cs->prefix)) ||
	    strlen(word) >= WORD)
		return;
	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->w[i], word))
			return;
	snprintf(cs->w[cs->n++], WORD, "%s", word);
}

/* One word of a syntax: optional or not, and its alternatives. */
typedef struct token {
	bool opt;
	char alt[16][WORD];
	int nalt;
} token;

static bool placeholder(const char *alt)
{
	for (; *alt; alt++)
		if (isupper((unsigned char)*alt))
			return true;
	return false;
}

/* Splits the variant TEXT (LEN characters) into tokens; their count. */
static int tokens_of(const char *text, size_t len, token *t)
{
	int n = 0;

	for (const char *p = text, *end = text + len; p < end && n < MAX_TOKENS;) {
		size_t k;

		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		k = strcspn(p, " ");
		k = k > (size_t)(end - p) ? (size_t)(end - p) : k;
		t[n].opt = *p == '[' && p[k - 1] == ']';
		t[n].nalt = 0;
		for (const char *a = p + t[n].opt, *ae = p + k - t[n].opt; a < ae && t[n].nalt < 16;) {
			size_t m = strcspn(a, "|");

			m = m > (size_t)(ae - a) ? (size_t)(ae - a) : m;
			snprintf(t[n].alt[t[n].nalt++], WORD, "%.*s", (int)m, a);
			a += m + 1;
		}
		n++;
		p += k;
	}
	return n;
}

static bool token_matches(const token *t, const char *word)
{
	for (int i = 0; i < t->nalt; i++)
		if (placeholder(t->alt[i]) || !strcmp(t->alt[i], word))
			return true;
	return false;
}

/* Adds the words alternative ALT stands for: itself, or what its
 * placeholder names. */
static void expand(const ff_ctl *c, const char *alt, cands *cs)
{
	const ff_level_meta *m = &c->s->level->meta;
	const ff_ctl_hooks *h = &c->hooks;

	if (!placeholder(alt)) {
		add(cs, alt);
	} else if (!strcmp(alt, "TERRAIN")) {
		for (int i = 0; i < m->npalette; i++)
			add(cs, m->palette[i].name);
		add(cs, "wall");
	} else if (!strcmp(alt, "GROUP")) {
		for (int i = 0; i < m->ngroups; i++)
			add(cs, ff_level_group_name(c->s->level, i));
	} else if (!strcmp(alt, "PARAM")) {
		for (int i = 0; i < FF_P__COUNT; i++)
			add(cs, ff_param_info_get((ff_param_id)i)->name);
	} else if (!strcmp(alt, "FILE") && h->list) {
		h->list(h->ctx, FF_LIST_FILES, cs->prefix, add, cs);
	} else if (!strcmp(alt, "LEVEL") && h->list) {
		h->list(h->ctx, FF_LIST_LEVELS, cs->prefix, add, cs);
	} else if (!strcmp(alt, "db:NAME")) {
		cands *more;

		add(cs, "db:");
		if (!h->list || strncmp(cs->prefix, "db:", 3) || !(more = malloc(sizeof *more)))
			return;
		more->n = 0;
		snprintf(more->prefix, sizeof more->prefix, "%s", cs->prefix + 3);
		h->list(h->ctx, FF_LIST_REPLAYS, more->prefix, add, more);
		for (int i = 0; i < more->n; i++) {
			char name[WORD + 4];

			snprintf(name, sizeof name, "db:%s", more->w[i]);
			add(cs, name);
		}
		free(more);
	}
}

/* The candidates after the words W[0..N-1] in the variant TEXT (LEN). */
static void from_variant(const ff_ctl *c, const char *text, size_t len, char w[][WORD],
			 int n, cands *cs)
{
	token t[MAX_TOKENS];
	bool at[MAX_TOKENS + 1] = {true}, next[MAX_TOKENS + 1];
	int nt = tokens_of(text, len, t);

	for (int k = 0; k <= n; k++) {
		/* skipping optional words reaches further */
		for (int i = 0; i < nt; i++)
			if (at[i] && t[i].opt)
				at[i + 1] = true;
		if (k == n)
			break;
		memset(next, 0, sizeof next);
		for (int i = 0; i < nt; i++)
			if (at[i] && token_matches(&t[i], w[k]))
				next[i + 1] = true;
		memcpy(at, next, sizeof at);
	}
	for (int i = 0; i < nt; i++)
		if (at[i])
			for (int a = 0; a < t[i].nalt; a++)
				expand(c, t[i].alt[a], cs);
}

/* The candidates for word N (W[0..N-1] typed before it). */
static void candidates(const ff_ctl *c, char w[][WORD], int n, cands *cs)
{
	const ff_ui_cmd *u;
	const ff_cmd_info *ci = NULL;
	const char *args = NULL;

	if (n == 0) {
		for (int i = 0; (u = ff_ui_cmd_at(i)); i++)
			if (!(u->flags & FF_UI_CMD_INTERNAL)) {
				add(cs, u->name);
				if (u->alias)
					add(cs, u->alias);
			}
		for (int i = 0; (ci = ff_cmd_info_at(i)); i++)
			add(cs, ci->name);
		return;
	}
	if ((u = ff_ui_cmd_find(w[0])))
		args = u->args;
	for (int i = 0; !args && (ci = ff_cmd_info_at(i)); i++)
		if (!strcmp(ci->name, w[0]))
			args = ci->args;
	for (const char *p = args; p && *p;) {
		const char *bar = strstr(p, " | ");
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		from_variant(c, p, len, w + 1, n - 1, cs);
		p = bar ? bar + 3 : p + len;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Lists CS in the message line, as many as fit. */
static void list(ff_ctl *c, const cands *cs)
{
	size_t n = 0;

	c->msg[0] = '\0';
	for (int i = 0; i < cs->n; i++) {
		size_t k = strlen(cs->w[i]);

		if (n + k + 5 >= sizeof c->msg || (int)(n + k + 4) > c->cols) {
			snprintf(c->msg + n, sizeof c->msg - n, "...");
			break;
		}
		n += (size_t)snprintf(c->msg + n, sizeof c->msg - n, "%s%s", i ? " " : "", cs->w[i]);
	}
	c->msg_error = false;
}

unsigned ff_ui_prompt_complete(ff_ctl *c, int argc, char **argv)
{
	ff_prompt *p = &c->prompt;
	char w[MAX_WORDS][WORD], done[FF_PROMPT_MAX];
	cands *cs;
	int n = 0, start = p->pos;
	size_t common;

	(void)argc, (void)argv;
	while (start > 0 && p->text[start - 1] != ' ')
		start--;
	for (int i = 0; i < start && n < MAX_WORDS;) {
		size_t k;

		while (i < start && p->text[i] == ' ')
			i++;
		if (i == start)
			break;
		k = strcspn(p->text + i, " ");
		snprintf(w[n++], WORD, "%.*s", (int)k, p->text + i);
		i += (int)k;
	}
	cs = malloc(sizeof *cs);
	if (!cs)
		return 0;
	cs->n = 0;
	snprintf(cs->prefix, sizeof cs->prefix, "%.*s", p->pos - start, p->text + start);
	if (n < MAX_WORDS)
		candidates(c, w, n, cs);
	qsort(cs->w, (size_t)cs->n, sizeof cs->w[0], by_name);
	if (cs->n == 0) {
		ff_ctl_say(c, false, "nothing to complete");
		free(cs);
		return FF_UI_MSG;
	}
	common = strlen(cs->w[0]);
	for (int i = 1; i < cs->n; i++)
		while (common && strncmp(cs->w[0], cs->w[i], common))
			common--;
	snprintf(done, sizeof done, "%.*s%.*s%s%s", start, p->text, (int)common, cs->w[0],
		 cs->n == 1 && common > 0 && !strchr("/:", cs->w[0][common - 1]) ? " " : "",
		 p->text + p->pos);
	ff_prompt_open(&c->prompt, done);
	p->pos = start + (int)common + (cs->n == 1 && done[start + (int)common] == ' ');
	if (cs->n > 1)
		list(c, cs);
	else
		c->msg[0] = '\0';
	free(cs);
	return FF_UI_MSG;
}
