# The curses editor.  ctl, keymap, prompt and view are curses-free (the
# controller and what it shows), so tests/check_tui drives them with no
# terminal; term, draw and app own the screen.
noinst_LIBRARIES += src/tui/libfftui.a
src_tui_libfftui_a_SOURCES = \
	src/tui/ctl.c src/tui/ctl.h src/tui/ctl_int.h src/tui/ctl_cmd.c \
	src/tui/ctl_view.c src/tui/ctl_edit.c src/tui/ctl_file.c \
	src/tui/ctl_prompt.c src/tui/ctl_complete.c \
	src/tui/ctl_sim.c src/tui/ctl_slice.c src/tui/ctl_split.c \
	src/tui/ctl_rec.c src/tui/ctl_play.c src/tui/ctl_group.c \
	src/tui/keymap.c src/tui/keymap.h \
	src/tui/prompt.c src/tui/prompt.h \
	src/tui/view.c src/tui/view.h src/tui/view_status.c src/tui/view_help.c \
	src/tui/view_crowd.c \
	src/tui/term.c src/tui/term.h \
	src/tui/draw.c src/tui/draw.h \
	src/tui/app.c src/tui/tui.h \
	src/tui/bench.c
src_tui_libfftui_a_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
