/*
 * testlevel.h - undo patches checked the same way by the level suites
 * (check_level.c, check_level_dyn.c).
 */
#ifndef FF_TESTLEVEL_H
#define FF_TESTLEVEL_H

#include "core/level_patch.h"
#include "testutil.h"

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
