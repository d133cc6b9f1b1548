/*
 * ctl_int.h - what the controller's files share (ctl.c, ctl_sim.c,
 * ctl_rec.c): running a command line, the mode switch, messages, and the
 * editor commands each file adds to the table in ctl.c.  Not for the rest
 * of the program: ctl.h is the controller's interface.
 */
#ifndef FF_TUI_CTL_INT_H
#define FF_TUI_CTL_INT_H

#include "ctl.h"

/* An editor command: ARGV[0] is its name; returns the FF_UI_* mask. */
typedef unsigned (*ff_ui_fn)(ff_ctl *c, int argc, char **argv);

void ff_ctl_say(ff_ctl *c, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
unsigned ff_ctl_usage(ff_ctl *c, const char *text);
bool ff_ctl_parse_int(const char *s, int *v);
/* Runs LINE through the core (recorded when recording); FROM_PROMPT adds
 * the error column to the message. */
unsigned ff_ctl_core(ff_ctl *c, const char *line, bool from_prompt);
/* Runs LINE as a key or the prompt would (editor command or core). */
unsigned ff_ctl_line(ff_ctl *c, const char *line);
unsigned ff_ctl_set_mode(ff_ctl *c, ff_mode_id m);

/* ctl_sim.c: after the session changed (MASK: FF_REDRAW_*), count the
 * agents again and bring the split view's solver up to date. */
void ff_ctl_changed(ff_ctl *c, unsigned mask);
unsigned ff_ctl_solve_sliced(ff_ctl *c, int argc, char **argv, bool *handled);
unsigned ff_ui_mode(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_run(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_speed(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_sim_toggle(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_split(ff_ctl *c, int argc, char **argv);
unsigned ff_ctl_sim_idle(ff_ctl *c, double elapsed_ms);

/* ctl_rec.c: recording and playback. */
void ff_ctl_rec_flush(ff_ctl *c);
void ff_ctl_rec_line(ff_ctl *c, const char *line);
unsigned ff_ui_record(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_play(ff_ctl *c, int argc, char **argv);
unsigned ff_ui_play_next(ff_ctl *c, int argc, char **argv);
unsigned ff_ctl_play_idle(ff_ctl *c, double elapsed_ms);

#endif
