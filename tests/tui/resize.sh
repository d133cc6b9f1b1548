#!/bin/sh
# resize.sh - the editor follows the pane's size live, says clearly when the
# terminal is smaller than 80x24 (where keys do nothing but quit), and works
# again once it is enlarged.
. "${srcdir:-.}/tests/tui/lib.sh"

cp "$srcdir/levels/chokepoint.level" "$work/cp.level"
start edit "$work/cp.level"
T resize-window -t ed -x 120 -y 40
wait_for '^#\.+#\.+#$'
# the status line may reach the pane a moment after the grid
i=0
until [ "$(screen | sed -n 39p | cut -c1-11)" = " chokepoint" ]; do
	[ $i -lt 100 ] || fail "no status line on row 38 at 120x40"
	sleep 0.1
	i=$((i + 1))
done
T resize-window -t ed -x 70 -y 20
wait_for 'terminal too small: 70x20, needs 80x24'
keys l w                        # unseen: neither moves nor paints
T resize-window -t ed -x 100 -y 30
wait_for '32,16 grass 1'
wait_gone 'too small'
keys q
wait_for 'EXIT=0'
echo ok
