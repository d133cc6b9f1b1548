/*
 * testlevel.h - for the level suites (check_level.c, check_level_dyn.c,
 * check_classes.c): a text level that must parse, and undo patches
 * checked the same way.
 */
#ifndef FF_TESTLEVEL_H
#define FF_TESTLEVEL_H

#include <string.h>

#include "core/level_patch.h"
#include "core/level_text.h"
#include "testutil.h"

/* TEXT as a level, failing the test with the parser's message if it does
 * not parse. */
static inline ff_level *tl_parse(const char *text)
{
	ff_level *l = NULL;
	ff_diag d;

	ck_assert_msg(ff_textlevel_parse(text, strlen(text), &l, &d) == FF_OK, "%d:%d: %s",
		      d.line, d.col, d.msg);
	return l;
}

/* Given the level just after a mutation that filled undo patch P, checks that
 * P restores BEFORE exactly, that applying it again redoes the mutation, and
 * a third time undoes it again; L is left equal to BEFORE. */
static inline void tl_check_undo(ff_level *l, const ff_level *before, ff_patch *p)
{
	ff_level *after = ff_level_clone(l);

	ck_assert(!ff_level_equal(l, before));
	ff_patch_apply(l, p);
	ck_assert(ff_level_equal(l, before));
	ff_patch_apply(l, p);
	ck_assert(ff_level_equal(l, after));
	ff_patch_apply(l, p);
	ck_assert(ff_level_equal(l, before));
	ff_patch_fini(p);
	ff_level_destroy(after);
}

#endif
