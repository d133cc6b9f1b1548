#!/bin/sh
# store.sh - editing a level stored in the database: save with a revision
# check, a conflicting save by someone else is refused and explained (the
# message wraps onto the status line), and saving a copy under a new name
# keeps the edit.
. "${srcdir:-.}/tests/tui/lib.sh"

db="$work/levels.db"
start edit chokepoint
cmd "goto 10,10"
keys w
wait_for '10,10 wall 255'
cmd "w"
wait_for "saved 'chokepoint' \(revision 2\)"
# someone else saves over it meanwhile
"$FIELDMARSHAL" --db "$db" import --force "$srcdir/levels/chokepoint.level" >/dev/null 2>&1 ||
	fail "import --force failed"
cmd "goto 11,10"
keys w
wait_for '11,10 wall 255'
cmd "w"
wait_for "not saved: 'chokepoint' changed in the database since you opened it"
wait_for ':e! loads theirs$'             # too long for one line: two
cmd "w mine"
wait_for "saved as 'mine'"
wait_for '^ mine \| EDIT'
# a copy written to a file, or to a .map that cannot hold the goals, leaves
# the stored level unsaved
cmd "goto 12,10"
keys w
wait_for '12,10 wall 255'
cmd "w $work/copy.level"
wait_for 'wrote a copy to'
wait_for '^ mine \[\+\] \| EDIT'
cmd "w $work/copy.map"
wait_for 'a .map keeps only the grid'
wait_for '^ mine \[\+\] \| EDIT'
[ -s "$work/copy.level" ] && [ -s "$work/copy.map" ] || fail "the copies were not written"
cmd "w"
wait_for "saved 'mine' \(revision 2\)"
# a copy over an existing level: refused, unless with w!
cmd "w chokepoint"
wait_for ':w! chokepoint overwrites it'
cmd "w! chokepoint"
wait_for "saved as 'chokepoint'"
keys q
wait_for 'EXIT=0'
"$FIELDMARSHAL" --db "$db" levels show mine | sed -n '/^grid/,$p' | sed -n 12p |
	grep -q '^#\.\.\.\.\.\.\.\.\.##' || fail "the copy lacks the two walls"
echo ok
