#!/bin/sh
# solve.sh - the solver in the editor, end to end in tmux: solve and see the
# arrows point round the chokepoint wall, turn the number layer on and read
# a known integration value, step the solver and see the frontier move.
. "${srcdir:-.}/tests/tui/lib.sh"

cp "$srcdir/levels/chokepoint.level" "$work/cp.level"
start edit "$work/cp.level"
cmd "goto 0,0"
cmd "solve"
wait_for 'dijkstra8 done'
# the wall is column 40 with a gap at rows 15-16; the goal is columns 54-59
expect_cell 39 5 'v'            # left of the wall, above the gap: down to it
expect_cell 39 25 '^'           # below the gap: up to it
expect_cell 20 15 '>'           # level with the gap: straight through
expect_cell 62 15 '<'           # right of the goal: back to it
expect_cell 56 15 '*'           # the goal itself
# numbers: wide cells centred on the cursor; 62,11 is 2 + sqrt 2 from 59,12
cmd "goto 62,11"
keys n
wait_for 'numbers on'
wait_for '62,11 grass 1  int 3\.41'
screen | grep -q 'd3\.41 ' || fail "no 3.41 in a cell"
screen | grep -q '<1\.00 ' || fail "no 1.00 beside the goal"
keys n
wait_for 'numbers off'
cmd "zoom 0"
# stepping: the frontier ('+') moves outwards wave by wave
cmd "step begin"
wait_for 'dijkstra8 cost'
cmd "step phase"
cmd "step wave 3"
wait_for 'integrate'
before=$(screen | head -n 28)
echo "$before" | grep -q '+' || fail "no frontier after 3 waves"
cmd "step wave 5"
sleep 0.3
after=$(screen | head -n 28)
echo "$after" | grep -q '+' || fail "no frontier after 8 waves"
[ "$before" != "$after" ] || fail "the frontier did not move"
# 8 waves out, the goal's left column (54) has its frontier at column 46
echo "$after" | sed -n 16p | cut -c47 | grep -q '+' || fail "frontier not at column 46"
keys q
wait_for 'EXIT=0'
echo ok
