#!/bin/sh
# split.sh - split view in tmux: two panes over the same level with
# different solvers, side by side, stepped together; export as ANSI.
. "${srcdir:-.}/tests/tui/lib.sh"

cp "$srcdir/levels/chokepoint.level" "$work/cp.level"
start edit "$work/cp.level"
cmd "goto 0,0"
keys s
wait_for 'dijkstra8 done'
cmd "split dijkstra 4"
wait_for 'dijkstra8 done \| dijkstra4 done \| step 1'
# 49 cells a pane, a '|' between: column 49 separates, 50 starts the right;
# row 0 labels the panes, the grid starts on row 1
expect_cell 49 1 '|'
expect_cell 0 1 '#'
expect_cell 50 1 '#'
screen | head -n 1 | grep -q '^dijkstra8 done  *|dijkstra4 done' || fail "no pane labels"
# 4-connected arrows never point diagonally
right=$(screen | sed -n 2,28p | cut -c51-99)
echo "$right" | grep -q '[bdpq]' && fail "diagonal arrows in the 4-connected pane"
screen | sed -n 2,28p | cut -c1-49 | grep -q '[bdpq]' || fail "no diagonal arrows on the left"
# stepping applies to both panes
keys b
wait_for 'dijkstra8 cost \| dijkstra4 cost \| step 0'
keys '}' '>' '>'
wait_for 'dijkstra8 integrate \| dijkstra4 integrate \| step 3'
cmd "export $work/view.ans ansi"
wait_for 'wrote'
grep -q "$(printf '\033')\[0" "$work/view.ans" || fail "no colours in the ANSI export"
keys '|'
wait_for 'split view off'
keys q
wait_for 'EXIT=0'
echo ok
