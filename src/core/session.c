/* session.c - a level with its undo and redo history. */
#include <string.h>

#include "session.h"

void ff_session_init(ff_session *s, ff_level *level)
{
	memset(s, 0, sizeof *s);
	s->level = level;
}

static void clear(ff_patch *stack, int *n)
{
	while (*n > 0)
		ff_patch_fini(&stack[--*n]);
}

void ff_session_fini(ff_session *s)
{
	clear(s->undo, &s->nundo);
	clear(s->redo, &s->nredo);
	ff_level_destroy(s->level);
	s->level = NULL;
}

static void push(ff_patch *stack, int *n, ff_patch *p)
{
	if (*n == FF_UNDO_MAX) {
		ff_patch_fini(&stack[0]);
		memmove(stack, stack + 1, (FF_UNDO_MAX - 1) * sizeof *stack);
		(*n)--;
	}
	stack[(*n)++] = *p;
	*p = (ff_patch)FF_PATCH_INIT;
}

void ff_session_push_undo(ff_session *s, ff_patch *p)
{
	clear(s->redo, &s->nredo);
	push(s->undo, &s->nundo, p);
	s->modified = true;
}

/* Moves the top of FROM onto TO after applying it: one step of history. */
static ff_err travel(ff_session *s, ff_patch *from, int *nfrom, ff_patch *to, int *nto)
{
	ff_patch p;

	if (*nfrom == 0)
		return FF_E_STATE;
	p = from[--*nfrom];
	ff_patch_apply(s->level, &p);
	push(to, nto, &p);
	s->modified = true;
	return FF_OK;
}

ff_err ff_session_undo(ff_session *s)
{
	return travel(s, s->undo, &s->nundo, s->redo, &s->nredo);
}

ff_err ff_session_redo(ff_session *s)
{
	return travel(s, s->redo, &s->nredo, s->undo, &s->nundo);
}
