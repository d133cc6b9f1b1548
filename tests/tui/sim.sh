#!/bin/sh
# sim.sh - simulation mode end to end in tmux: enter it (the field is
# solved first), spawn the level's crowd, run it and see agents on screen
# move and the arrived count rise; pause; paint a wall while they move.
. "${srcdir:-.}/tests/tui/lib.sh"

cp "$srcdir/levels/chokepoint.level" "$work/cp.level"
start edit "$work/cp.level"
keys m
wait_for 'SIM paused x1 \|'
keys s
wait_for 'tick 0 alive [1-9][0-9]* arrived 0'
screen | head -n 28 | grep -q '[o2-9]' || fail "no agents drawn"
first=$(screen | head -n 28)
keys Space
wait_for 'SIM run x1 \|'
keys '>' '>'
wait_for 'SIM run x4'
wait_for 'tick [1-9][0-9]'
later=$(screen | head -n 28)
[ "$first" != "$later" ] || fail "the agents did not move"
wait_for 'arrived [1-9]' 20
# painting a wall while they move: the field is repaired, no error
cmd "goto 20,3"
keys w
wait_for '20,3 wall'
screen | tail -n 1 | grep -qi 'error\|unknown' && fail "painting failed"
keys Space
wait_for 'SIM paused x4 \|'
t1=$(status | grep -o 'tick [0-9]*')
sleep 0.5
t2=$(status | grep -o 'tick [0-9]*')
[ "$t1" = "$t2" ] || fail "ticking while paused ($t1, $t2)"
keys .
wait_gone "$t1 "
keys m
wait_for '\| EDIT \|'
keys q
wait_for 'unsaved changes'
keys y
wait_for 'EXIT=0'
echo ok
