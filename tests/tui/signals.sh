#!/bin/sh
# signals.sh - every way out restores the terminal: Ctrl-C (asking first
# when there are unsaved changes) and SIGTERM, which keeps unsaved changes
# in a file; the shell prompt's output after the editor shows on the
# normal screen again.
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

# SIGTERM with unsaved changes: they are kept in a file beside the level,
# which stays as it was, and the exit status says how it ended
start edit "$work/cp.level"
cmd "goto 3,3"
keys w
wait_for 'chokepoint \[\+\]'
shell=$(T display-message -p -t ed '#{pane_pid}')
pid=$(pgrep -P "$shell" | head -n 1)
kill -TERM "$pid"
wait_for 'EXIT=143'
wait_for 'unsaved changes'
cmp -s "$work/cp.level" "$srcdir/levels/chokepoint.level" || fail "the level file changed"
kept=$(ls "$work"/chokepoint-*.recovered.level 2>/dev/null | head -n 1)
[ -n "$kept" ] || fail "no recovered file in $work"
"$FIELDMARSHAL" show "$kept" | sed -n '/^grid/,$p' | sed -n 5p | cut -c4 | grep -q '#' ||
	fail "the recovered level lacks the wall at 3,3"
echo ok
