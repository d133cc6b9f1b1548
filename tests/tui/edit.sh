#!/bin/sh
# edit.sh - the editor end to end in tmux: open a level file, paint a wall,
# place a goal and see both on screen, undo and redo, save, quit, reopen and
# find the edit; quitting with unsaved changes asks first.
. "${srcdir:-.}/tests/tui/lib.sh"

level="$work/cp.level"
cp "$srcdir/levels/chokepoint.level" "$level"
chmod u+w "$level"

start edit "$level"
# the 64x32 level fits across a 100x30 pane; rows 0..27 show level rows 0..27
wait_for 'chokepoint \| EDIT \| 32,16 grass 1'
cmd "goto 10,10"
keys w
wait_for '10,10 wall 255'
expect_cell 10 10 '#'
wait_for 'chokepoint \[\+\]'
cmd "goto 20,5"
keys g
wait_for '20,5 grass 1 goal'
expect_cell 20 5 '*'
keys u
wait_gone '20,5 grass 1 goal'
expect_cell 20 5 '.'
keys C-r
wait_for '20,5 grass 1 goal'
expect_cell 20 5 '*'
keys u
wait_gone '20,5 grass 1 goal'
cmd "w"
wait_for "wrote .*cp.level"
wait_gone 'chokepoint \[\+\]'
keys q
wait_for 'EXIT=0'
grep -q '^#\.\.\.\.\.\.\.\.\.#' "$level" || fail "the wall is not in the saved file"

start edit "$level"
cmd "goto 10,10"
wait_for '10,10 wall 255'
expect_cell 10 10 '#'
expect_cell 20 5 '.'
# unsaved changes: q asks, n keeps editing, q y quits without saving
cmd "goto 30,3"
keys w
wait_for '30,3 wall 255'
keys q
wait_for 'unsaved changes: y \(or Ctrl-C again\) quits without saving'
keys n
wait_for '\| EDIT \|'
expect_cell 30 3 '#'
keys q
wait_for 'unsaved changes'
keys y
wait_for 'EXIT=0'
[ "$(sed -n '/^grid/,$p' "$level" | sed -n 5p | cut -c31)" = . ] ||
	fail "the unsaved wall reached the file"

# the error of a bad command names its column

start edit "$level"
cmd "paint 99,1 wall"
wait_for "column 7: '99,1' reaches outside the 64x32 level"

# a prompt line longer than the screen scrolls to keep its end in view
keys :
T send-keys -t ed -l "paint 1,1 wall # $(printf '%0120d' 0) END"
wait_for '0 END$'
keys Escape
keys q
wait_for 'EXIT=0'

# a Tiled map saved stays a Tiled map (:w wrote a text level into it, which
# then did not load); a .tmj copy is one too
"$FIELDMARSHAL" show "$srcdir/levels/maze.level" -o "$work/m.tmx" 2> /dev/null
start edit "$work/m.tmx"
cmd "paint 3,1 wall"
wait_for '\| EDIT'
cmd "w"
wait_for "wrote $work/m.tmx"
cmd "w $work/m.tmj"
wait_for "wrote $work/m.tmj"
keys q
wait_for 'EXIT=0'
for f in m.tmx m.tmj; do
	"$FIELDMARSHAL" show "$work/$f" > "$work/$f.level" || fail "$f no longer loads"
	[ "$(sed -n '/^grid/,$p' "$work/$f.level" | sed -n 3p | cut -c4)" = '#' ] ||
		fail "$f lacks the wall painted at 3,1"
done
echo ok
