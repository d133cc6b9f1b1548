/*
 * testtui.h - the editor's controller in the suites that drive it with no
 * terminal: a session and a controller with fake hooks (saving, writing,
 * reloading, listing names), synthetic keys, and the teaching level of
 * docs/teaching.md.
 */
#ifndef FF_TESTTUI_H
#define FF_TESTTUI_H

#include <math.h>
#include <string.h>

#include "core/cmd.h"
#include "testutil.h"
#include "tui/ctl.h"

typedef struct fake_io {
	int saves, reloads;
	char target[256];
	char written[16384];
	int fail, write_fail;
	int pictures;
	ff_pic_field field;      /* of the last picture */
} fake_io;

static inline int fake_save(void *ctx, ff_session *s, const char *target, bool force, char *msg,
		     size_t size)
{
	fake_io *io = ctx;

	(void)force;
	if (io->fail) {
		snprintf(msg, size, "disk full");
		return io->fail;
	}
	io->saves++;
	snprintf(io->target, sizeof io->target, "%s", target ? target : "");
	if (!target)
		s->modified = false;     /* saved where it came from */
	snprintf(msg, size, "saved");
	return 0;
}

static inline int fake_write(void *ctx, const char *path, const char *data, size_t len, char *msg,
		      size_t size)
{
	fake_io *io = ctx;

	if (io->write_fail) {
		snprintf(msg, size, "read-only file system");
		return io->write_fail;
	}
	snprintf(io->target, sizeof io->target, "%s", path);
	snprintf(io->written, sizeof io->written, "%.*s", (int)len, data);
	snprintf(msg, size, "wrote");
	return 0;
}

static inline int fake_picture(void *ctx, const ff_session *s, ff_pic_field field,
				const char *path, char *msg, size_t size)
{
	fake_io *io = ctx;

	(void)s;
	io->pictures++;
	io->field = field;
	snprintf(io->target, sizeof io->target, "%s", path);
	snprintf(msg, size, "drew");
	return 0;
}

/* :e! - the level "as saved": a fresh level of the session's size. */
static inline int fake_reload(void *ctx, ff_session *s, char *msg, size_t size)
{
	fake_io *io = ctx;
	ff_level *l = ff_level_create(s->level->w, s->level->h, "t");

	if (!l)
		return FF_E_NOMEM;
	io->reloads++;
	ff_session_fini(s);
	ff_session_init(s, l);
	snprintf(msg, size, "loaded again");
	return 0;
}

/* Tab's names from outside: two files, two stored levels, one replay. */
static inline void fake_list(void *ctx, ff_list_kind kind, const char *prefix,
			     void (*add)(void *arg, const char *word), void *arg)
{
	static const char *const names[3][2] = {
		{"teach.level", "tests/"}, {"chokepoint", "teach"}, {"lesson", NULL},
	};

	(void)ctx;
	for (int i = 0; i < 2; i++)
		if (names[kind][i] && !strncmp(names[kind][i], prefix, strlen(prefix)))
			add(arg, names[kind][i]);
}

static fake_io io;
static ff_session sess;
static ff_ctl ctl;

static inline void start(int w, int h, int cols, int rows)
{
	ff_ctl_hooks hooks = {&io, fake_save, fake_write, NULL, fake_picture, fake_reload,
			      fake_list};

	memset(&io, 0, sizeof io);
	ff_session_init(&sess, ff_level_create(w, h, "t"));
	ck_assert_ptr_nonnull(sess.level);
	ff_ctl_init(&ctl, &sess, &hooks, cols, rows);
}

static inline void stop(void)
{
	ff_ctl_fini(&ctl);
	ff_session_fini(&sess);
}

/* Feeds the characters of KEYS as key presses; returns the OR of masks. */
static inline unsigned type(const char *keys)
{
	unsigned ui = 0;

	for (const char *k = keys; *k; k++)
		ui |= ff_ctl_key(&ctl, *k == '\n' ? FF_KEY_ENTER : *k);
	return ui;
}

/* Types TEXT at a fresh prompt, presses Tab, and returns the line. */
static inline const char *tab(const char *text)
{
	ff_ctl_run(&ctl, "prompt-cancel");
	type(":");
	type(text);
	ff_ctl_key(&ctl, FF_KEY_TAB);
	return ctl.prompt.text;
}

/* Screen columns of UTF-8 TEXT. */
static inline size_t columns(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += ((unsigned char)*text & 0xc0) != 0x80;
	return n;
}

static inline void ok(ff_session *s, const char *line)
{
	ff_cmd_result r;

	ck_assert_msg(ff_cmd_exec(s, line, &r) == FF_OK, "%s: %s", line, r.msg);
}


static inline void teach_level(void)
{
	static const char *const rows[] = {"5,2 1,3 wall", "8,3 2,2 5"};

	start(12, 7, 100, 30);
	for (size_t i = 0; i < 2; i++) {
		char line[64];

		snprintf(line, sizeof line, "rect %s", rows[i]);
		ok(&sess, line);
	}
	ok(&sess, "goal add cell 10,3");
}


static inline void assert_same_field(const ff_solver *a, const ff_solver *b, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double va = ff_solver_value(a, x, y), vb = ff_solver_value(b, x, y);

			ck_assert_msg(va == vb || (isinf(va) && isinf(vb)), "%d,%d: %g vs %g", x, y,
				      va, vb);
			ck_assert_int_eq(ff_solver_dir(a, x, y), ff_solver_dir(b, x, y));
		}
}

#endif
