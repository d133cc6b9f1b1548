/* prompt.c - line editing and history for the ':' prompt. */
#include <string.h>

#include "keymap.h"
#include "prompt.h"

void ff_prompt_init(ff_prompt *p)
{
	memset(p, 0, sizeof *p);
}

static void set_text(ff_prompt *p, const char *text)
{
	size_t n = text ? strlen(text) : 0;

	if (n >= FF_PROMPT_MAX)
		n = FF_PROMPT_MAX - 1;
	memcpy(p->text, text ? text : "", n);
	p->text[n] = '\0';
	p->len = p->pos = (int)n;
}

void ff_prompt_open(ff_prompt *p, const char *text)
{
	set_text(p, text);
	p->browse = p->nhistory;
}

static void insert(ff_prompt *p, char c)
{
	if (p->len >= FF_PROMPT_MAX - 1)
		return;
	memmove(p->text + p->pos + 1, p->text + p->pos, (size_t)(p->len - p->pos + 1));
	p->text[p->pos++] = c;
	p->len++;
}

/* Deletes the characters [from, to). */
static void cut(ff_prompt *p, int from, int to)
{
	memmove(p->text + from, p->text + to, (size_t)(p->len - to + 1));
	p->len -= to - from;
	p->pos = from;
}

static int word_start(const ff_prompt *p)
{
	int i = p->pos;

	while (i > 0 && p->text[i - 1] == ' ')
		i--;
	while (i > 0 && p->text[i - 1] != ' ')
		i--;
	return i;
}

bool ff_prompt_key(ff_prompt *p, int key)
{
	if (key >= 32 && key < 127) {
		insert(p, (char)key);
		return true;
	}
	switch (key) {
	case FF_KEY_BACKSPACE:
	case 127:
	case FF_CTRL('h'):
		if (p->pos > 0)
			cut(p, p->pos - 1, p->pos);
		return true;
	case FF_KEY_DELETE:
	case FF_CTRL('d'):
		if (p->pos < p->len)
			cut(p, p->pos, p->pos + 1);
		return true;
	case FF_KEY_LEFT:
	case FF_CTRL('b'):
		p->pos -= p->pos > 0;
		return true;
	case FF_KEY_RIGHT:
	case FF_CTRL('f'):
		p->pos += p->pos < p->len;
		return true;
	case FF_KEY_HOME:
	case FF_CTRL('a'):
		p->pos = 0;
		return true;
	case FF_KEY_END:
	case FF_CTRL('e'):
		p->pos = p->len;
		return true;
	case FF_CTRL('u'):
		cut(p, 0, p->pos);
		return true;
	case FF_CTRL('k'):
		p->text[p->len = p->pos] = '\0';
		return true;
	case FF_CTRL('w'):
		cut(p, word_start(p), p->pos);
		return true;
	default:
		return false;
	}
}

void ff_prompt_history(ff_prompt *p, int dir)
{
	int to = p->browse + (dir < 0 ? -1 : 1);

	if (to < 0 || to > p->nhistory)
		return;
	if (p->browse == p->nhistory)
		memcpy(p->saved, p->text, sizeof p->saved);
	p->browse = to;
	set_text(p, to == p->nhistory ? p->saved : p->history[to]);
}

void ff_prompt_remember(ff_prompt *p)
{
	const char *t = p->text;

	while (*t == ' ')
		t++;
	if (!*t || (p->nhistory > 0 && !strcmp(p->history[p->nhistory - 1], p->text)))
		return;
	if (p->nhistory == FF_PROMPT_HISTORY) {
		memmove(p->history[0], p->history[1],
			(FF_PROMPT_HISTORY - 1) * sizeof p->history[0]);
		p->nhistory--;
	}
	memcpy(p->history[p->nhistory++], p->text, sizeof p->history[0]);
}
