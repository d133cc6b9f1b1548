/*
 * ctl_group.c - the selected group: which of the level's groups the keys
 * order about ('O' runs 'order GROUP cell X,Y' at the cursor) and whose
 * field the 'group' layer shows instead of the solved one.  That field is
 * the crowd's own (core/fields.h: what the group's agents follow), asked
 * for through the session, so it follows the level's edits and orders as
 * the crowd does.
 *
 * The selection is an index into the level's groups; an undo may take the
 * group away, and the default group (0) stands in for it then.
 */
#include <stdio.h>
#include <string.h>

#include "core/glyph.h"
#include "ctl_int.h"

int ff_ctl_group(const ff_ctl *c)
{
	int g = c->view.group;

	return g > 0 && g < c->s->level->meta.ngroups ? g : 0;
}

const ff_solver *ff_ctl_group_solver(const ff_ctl *c)
{
	return c->s->fields ? ff_fields_peek(c->s->fields, ff_ctl_group(c)) : NULL;
}

/* Why the selected group has no field, in a message; an error is said. */
static void say_why(ff_ctl *c, ff_err err)
{
	const char *name = ff_level_group_name(c->s->level, ff_ctl_group(c));

	if (err == FF_E_STATE)
		ff_ctl_say(c, true, "group %s: no field until the level is solved (s)", name);
	else if (err == FF_E_NOTFOUND)
		ff_ctl_say(c, true, "group %s has no goals: O orders it to the cursor", name);
	else if (err == FF_E_WALL)
		ff_ctl_say(c, true, "group %s: its goals lie on walls only", name);
	else
		ff_ctl_say(c, true, "group %s: %s", name, ff_strerror(err));
}

ff_err ff_ctl_sync_group(ff_ctl *c)
{
	const ff_solver *sv;

	if (!(c->view.layers & FF_LAYER_GROUP))
		return FF_OK;
	return ff_session_group_field(c->s, ff_ctl_group(c), &sv);
}

/* The group NAME names, "next" or "prev" from the selected one; -1 when
 * there is none. */
static int pick(const ff_ctl *c, const char *name)
{
	const int n = c->s->level->meta.ngroups, g = ff_ctl_group(c);

	if (!strcmp(name, "next"))
		return (g + 1) % n;
	if (!strcmp(name, "prev"))
		return (g + n - 1) % n;
	return ff_level_group_by_name(c->s->level, name);
}

unsigned ff_ui_group(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l = c->s->level;
	int g = ff_ctl_group(c);
	ff_err err;

	if (argc > 2)
		return ff_ctl_usage(c, argv[0]);
	if (argc == 2 && (g = pick(c, argv[1])) < 0) {
		ff_ctl_say(c, true, "the level has no group '%s'", argv[1]);
		return FF_UI_MSG;
	}
	c->view.group = g;
	err = ff_ctl_sync_group(c);
	if (err)
		say_why(c, err);
	else
		ff_ctl_say(c, false, "group %s (%d of %d; its agents '%s')%s",
			   ff_level_group_name(l, g), g + 1, l->meta.ngroups,
			   ff_glyph_group(g, c->view.utf8),
			   c->view.layers & FF_LAYER_GROUP ? ": its field shown" : "");
	return FF_UI_GRID | FF_UI_STATUS | FF_UI_MSG;
}

void ff_ctl_group_layer(ff_ctl *c, bool on)
{
	ff_err err;

	if (!on)
		return;
	if ((err = ff_ctl_sync_group(c)))
		say_why(c, err);
	else
		ff_ctl_say(c, false, "the field of group %s, as its agents follow it (Tab: another)",
			   ff_level_group_name(c->s->level, ff_ctl_group(c)));
}
