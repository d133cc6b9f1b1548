#!/bin/sh
# record.sh - a replay recorded in the editor through tmux (paint a wall,
# place a goal, solve, spawn, tick) replays headless, passes, and ends at
# the final hash the editor showed; the same recording into the database;
# and 'replay --tui' plays it back line by line.
. "${srcdir:-.}/tests/tui/lib.sh"

cp "$srcdir/levels/chokepoint.level" "$work/cp.level"
start edit "$work/cp.level"
keys R
wait_for '^:record'
keys -l "$work/lesson.replay"
keys Enter
wait_for 'EDIT REC'
cmd "goto 30,5"
keys w
wait_for '30,5 wall'
cmd "goto 62,28"
keys g
wait_for '62,28 grass 1 goal'
keys s
wait_for 'dijkstra8 done'
keys m
wait_for 'SIM paused x1 REC'
cmd "sim spawn 60"
wait_for 'alive 60'
keys . . .
wait_for 'tick 3 '
keys Space
wait_for 'tick [1-9][0-9]'
keys Space
wait_for 'SIM paused'
keys .
keys R
wait_for 'recorded [0-9]+ commands'
hash=$(screen | tail -n 1 | sed -n 's/.*final hash \([0-9a-f]\{16\}\).*/\1/p')
[ -n "$hash" ] || fail "no final hash shown"
keys m q
wait_for 'unsaved changes'
keys y
wait_for 'EXIT=0'

rec="$work/lesson.replay"
grep -q '^paint 30,5 wall$' "$rec" || fail "no paint line in the recording"
grep -q '^goal add cell 62,28$' "$rec" || fail "no goal line"
grep -q '^solve$' "$rec" || fail "no solve line"
grep -q '^sim spawn 60$' "$rec" || fail "no spawn line"
grep -q '^tick [0-9]*$' "$rec" || fail "no running ticks"
grep -q 'goto\|move\|mode' "$rec" && fail "view commands were recorded"
last=$(grep '^expect hash' "$rec" | tail -n 1 | cut -d' ' -f3)
[ "$last" = "$hash" ] || fail "recorded final hash $last, the editor showed $hash"
out=$("$FIELDMARSHAL" replay "$rec") || fail "the recording does not replay: $out"
echo "$out" | grep -q 'checks passed' || fail "replay said: $out"

# into the database's replays table
start edit "$work/cp.level"
cmd "record db:lesson"
wait_for 'EDIT REC'
keys g s
wait_for 'dijkstra8 done'
keys R
wait_for "saved replay 'lesson'|recorded"
keys q y
wait_for 'EXIT=0'
"$FIELDMARSHAL" --db "$work/levels.db" replay lesson >/dev/null ||
	fail "the stored recording does not replay"

# replay --tui: paused after the setup, '.' runs the next command (the
# checks before it silently), Space plays to the end
T kill-server >/dev/null 2>&1
nstart=$((nstart + 1))
sock="$work/tmux.$nstart.sock"
T -f /dev/null new-session -d -s ed -x 100 -y 30 \
	"$FIELDMARSHAL replay '$rec' --tui; echo EXIT=\$?; sleep 600"
wait_for '\| PLAY paused x1 line [0-9]+'
keys .
wait_for 'lesson.replay:[0-9]+: paint 30,5 wall'
expect_cell 30 3 '#'          # level row 5: the view starts at row 2
keys '>' '>' '>' '>' '>' '>' Space
wait_for 'end of the replay, every check passed' 20
keys q
wait_for 'EXIT=0'
echo ok
