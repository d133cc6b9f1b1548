#!/bin/sh
# signals.sh - every way out restores the terminal: Ctrl-C (asking first
# when there are unsaved changes) and SIGTERM; the shell prompt's output
# after the editor shows on the normal screen again.
. "${srcdir:-.}/tests/tui/lib.sh"

cp "$srcdir/levels/chokepoint.level" "$work/cp.level"
start edit "$work/cp.level"
keys C-c
wait_for 'EXIT=0'
wait_gone '\| EDIT \|'

start edit "$work/cp.level"
keys w
wait_for 'chokepoint \[\+\]'
keys C-c
wait_for 'unsaved changes'
keys C-c
wait_for 'EXIT=0'

start edit "$work/cp.level"
shell=$(T display-message -p -t ed '#{pane_pid}')
pid=$(pgrep -P "$shell" | head -n 1)
[ -n "$pid" ] || fail "cannot find the editor's process"
kill -TERM "$pid"
wait_for 'EXIT=[0-9]'
wait_gone '\| EDIT \|'
echo ok
