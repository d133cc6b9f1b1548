/*
 * ctl_int.h - what the controller's files share: the editor command table
 * (ctl_cmd.c), running a command line, the mode switch, messages, and each
 * file's commands.  Not for the rest of the program: ctl.h is the
 * controller's interface.
 *
 *   ctl.c         modes, keys, mouse, running a line, {placeholders}
 *   ctl_cmd.c     the editor command table: parsing, help, completion
 *   ctl_view.c    geometry, the cursor, zoom and layers
 *   ctl_edit.c    the pen, the brush, the mark
 *   ctl_file.c    saving, reloading, exporting, quitting
 *   ctl_prompt.c  the ':' prompt, Tab completion, the help screen
 *   ctl_sim.c     simulation mode and its real-time pacing
 *   ctl_slice.c   long solves in slices
 *   ctl_split.c   the split view's second solver
 *   ctl_group.c   the selected group and its field
 *   ctl_rec.c     recording a replay
 *   ctl_play.c    playing one back
 */
#ifndef FF_TUI_CTL_INT_H
#define FF_TUI_CTL_INT_H

#include "ctl.h"

/* An editor command: ARGV[0] is its name; returns the FF_UI_* mask. */
typedef unsigned (*ff_ui_fn)(ff_ctl *c, int argc, char **argv);

/* Editor command flags. */
enum {
	FF_UI_CMD_VIEW = 1 << 0,     /* changes what the grid shows (zoom, layers,
					split): recorded as a 'view' line, which
					replay --tui runs */
	FF_UI_CMD_INTERNAL = 1 << 1  /* bound to keys of the prompt, the help or
					the quit question; not listed */
};

typedef struct ff_ui_cmd {
	const char *name;
	const char *alias;       /* a short name (w for write), or NULL */
	const char *args;        /* usage after the name ("" for none), the
				    grammar Tab completes from */
	const char *summary;
	unsigned flags;          /* FF_UI_CMD_* */
	ff_ui_fn fn;
} ff_ui_cmd;

/* Editor command I of the table, or NULL past the end. */
const ff_ui_cmd *ff_ui_cmd_at(int i);
/* The command named (or aliased) NAME, or NULL. */
const ff_ui_cmd *ff_ui_cmd_find(const char *name);

void ff_ctl_say(ff_ctl *c, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Says "usage: NAME ARGS" from the table entry of ARGV0. */
unsigned ff_ctl_usage(ff_ctl *c, const char *argv0);
bool ff_ctl_parse_int(const char *s, int *v);
bool ff_ctl_parse_xy(const char *s, int *x, int *y);
int ff_ctl_clamp(int v, int lo, int hi);
/* Runs LINE through the core (recorded when recording); FROM_PROMPT adds
 * the error column to the message. */
unsigned ff_ctl_core(ff_ctl *c, const char *line, bool from_prompt);
/* Runs LINE as a key or the prompt would (editor command or core). */
unsigned ff_ctl_line(ff_ctl *c, const char *line);
unsigned ff_ctl_set_mode(ff_ctl *c, ff_mode_id m);
/* The mode a prompt, the help or a confirmation returns to. */
ff_mode_id ff_ctl_grid_mode(const ff_ctl *c);

/* ctl_view.c */
/* Layer I's name and FF_LAYER_* bit; NULL past the end. */
const char *ff_ctl_layer(int i, unsigned *bit);
unsigned ff_ctl_follow(ff_ctl *c);
unsigned ff_ctl_center(ff_ctl *c);
unsigned ff_ctl_move_to(ff_ctl *c, int x, int y);
/* Screen cell to level cell; false outside every pane's grid or the level. */
bool ff_ctl_screen_cell(const ff_ctl *c, int sx, int sy, int *x, int *y);
unsigned ff_ui_move(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_goto(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_page(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_edge(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_center(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_zoom(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_layer(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_redraw(ff_ctl *c, int argc, char **argv);

/* ctl_edit.c */
unsigned ff_ctl_dab(ff_ctl *c, int cost);
/* Paints from (X0, Y0) to the cursor with the pen (pen down, mouse drags). */
unsigned ff_ctl_stroke(ff_ctl *c, int x0, int y0);
void ff_ctl_mark_here(ff_ctl *c);
unsigned ff_ui_pen(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_brush(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_dab(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_dpen(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_ddab(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_draw(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_goal_here(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_mark(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_unmark(ff_ctl *c, int argc, char **argv);

/* ctl_file.c */
unsigned ff_ui_write(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_wq(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_quit(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_reload(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_export(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_confirm_cancel(ff_ctl *c, int argc, char **argv);

/* ctl_prompt.c */
unsigned ff_ui_prompt(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_prompt_run(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_prompt_cancel(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_prompt_history(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_prompt_complete(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_help(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_scroll(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_help_find(ff_ctl *c, int argc, char **argv);

/* ctl_sim.c: after the session changed (MASK: FF_REDRAW_*), count the
 * agents again and bring the split view's solver up to date. */
void ff_ctl_changed(ff_ctl *c, unsigned mask);
unsigned ff_ui_mode(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_run(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_speed(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_sim_toggle(ff_ctl *c, int argc, char **argv);
unsigned ff_ctl_sim_idle(ff_ctl *c, double elapsed_ms);

/* ctl_slice.c */
unsigned ff_ctl_solve_sliced(ff_ctl *c, int argc, char **argv, bool *handled);
unsigned ff_ctl_slice_idle(ff_ctl *c);

/* ctl_split.c */
void ff_ctl_sync_split(ff_ctl *c);

/* ctl_group.c: the selected group's field as the crowd has it (NULL when
 * there is none), getting it solved while the group layer is shown, and
 * what turning that layer on says. */
const ff_solver *ff_ctl_group_solver(const ff_ctl *c);
ff_err ff_ctl_sync_group(ff_ctl *c);
void ff_ctl_group_layer(ff_ctl *c, bool on);
unsigned ff_ui_group(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_split(ff_ctl *c, int argc, char **argv);

/* ctl_rec.c: recording. */
void ff_ctl_rec_flush(ff_ctl *c);
void ff_ctl_rec_line(ff_ctl *c, const char *line);
/* A view command LINE ran: recorded as a 'view' line. */
void ff_ctl_rec_view(ff_ctl *c, const char *line);
unsigned ff_ui_record(ff_ctl *c, int argc, char **argv);

/* ctl_play.c: playback. */
unsigned ff_ui_play(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_play_next(ff_ctl *c, int argc, char **argv);
unsigned ff_ctl_play_idle(ff_ctl *c, double elapsed_ms);

#endif
