#!/bin/sh
# picture.sh - the editor's ':export FILE.svg' and '.png' end to end in
# tmux: the flow it shows, drawn with an arrow per arrow on the screen's
# field, and a PNG libpng reads.
. "${srcdir:-.}/tests/tui/lib.sh"
command -v xmllint > /dev/null || { echo "SKIP: no xmllint"; exit 77; }

cp "$srcdir/levels/maze.level" "$work/maze.level"
start edit "$work/maze.level"
cmd "solve"
wait_for 'dijkstra8 done'
cmd "export $work/maze.svg"
wait_for 'wrote .*maze\.svg'
xmllint --noout "$work/maze.svg" || fail "the exported SVG is not well formed"
arrows=$(xmllint --xpath "count(//*[local-name()='use'])" "$work/maze.svg")
want=$("$FIELDMARSHAL" solve "$work/maze.level" --show flow --ascii | tr -d '#*x\n' | wc -c)
[ "$arrows" = "$want" ] || fail "the SVG has $arrows arrows, the field $want"
cmd "export $work/maze.png"
wait_for 'wrote .*maze\.png'
[ "$("$PNGDUMP" "$work/maze.png" | head -n 1)" = "492 288" ] ||
	fail "maze.png: $("$PNGDUMP" "$work/maze.png" | head -n 1)"
keys q
wait_for 'EXIT=0'
echo ok
