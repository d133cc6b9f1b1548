#!/bin/sh
# crowd.sh - the crowd's views in the real editor at 80x24: two groups
# drawn in their letters and counted in the status line, Tab selecting a
# group, G showing its field, O ordering it to the cursor (recorded, and
# the recording replays), a counting line drawn and counting live in the
# message line, and (without colours)
# the density as digits.
. "${srcdir:-.}/tests/tui/lib.sh"

FF_COLS=80 FF_ROWS=24
"$FIELDMARSHAL" run "$srcdir/levels/open.level" -e 'spawn clear' -e 'goal clear' \
	-e 'spawn add rect 2,8 6,8 40 group east' -e 'spawn add rect 40,8 6,8 40 group west' \
	-e 'goal add rect 44,8 3,8 group east' -e 'goal add rect 1,8 3,8 group west' \
	-o "$work/cross.level" || fail "making cross.level failed"
grid() { screen | head -n 22; }

start edit "$work/cross.level"
where="groups"
keys m
wait_for 'SIM paused x1 \|'
keys s
wait_for '\| group east 40'
grid | grep -q a || fail "no 'a' (group east) drawn"
grid | grep -q c || fail "no 'c' (group west) drawn"
keys Tab
wait_for '\| group west 40'
# the field shown is east's: above the crowd its arrows lean right ('b'
# is south-east in ASCII); west's lean left ('d')
row=$(grid | sed -n 3p)
echo "$row" | grep -q 'b' || fail "east's arrows not shown: $row"
keys G
wait_text 'the field of group west'
row=$(grid | sed -n 3p)
echo "$row" | grep -q 'd' && ! echo "$row" | grep -q 'b' || fail "west's arrows not shown: $row"
# O: group west's goal becomes the cursor cell, recorded as the level command, so that the recording replays headless
cmd "record $work/order.replay"
wait_for 'REC'
cmd "goto 24,3"
keys O
wait_text 'group west heads for cell 24,3'
[ "$(cell 24 3)" = "*" ] || fail "no goal drawn at the cursor"
where="counting line"
cmd "sim line 24,1 24,24"
wait_text 'line 1 counts agents'
[ "$(cell 24 4)" = "|" ] || fail "no line drawn at column 24"
keys Space
wait_for 'line 1: [1-9][0-9]* across' 30
keys Space
cmd "record stop"
wait_for 'recorded [0-9]+ commands'
keys q
wait_for 'unsaved changes'
keys y
wait_for 'EXIT=0'
grep -q '^order west cell 24,3$' "$work/order.replay" || fail "no order in the recording"
out=$("$FIELDMARSHAL" replay "$work/order.replay") || fail "the recording does not replay: $out"
echo "$out" | grep -q 'checks passed' || fail "replay said: $out"

where="density in monochrome"
export NO_COLOR=1
start edit "$work/cross.level"
keys m
wait_for 'SIM paused x1 \|'
keys s . .
wait_for 'tick 2 '
grid | grep -q 0 && fail "a '0' before the density layer"
keys '#'
wait_text 'as a digit 0-9'
grid | grep -q 0 || fail "no density digits"
keys q
wait_for 'EXIT=0'
echo ok
