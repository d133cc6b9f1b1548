#!/bin/sh
# faults.sh - the program when the disk or the heap fails it, through
# tests/fieldmarshal-faults (tests/faultwrap.c): every write, fsync and
# rename of '-o', of a save to the database and every write of 'sim
# --trajectories' fails in turn, then every allocation of a script run and
# of an import, and a first run is killed at each of its writes.  Each
# time the command must fail with a message and leave the file and the
# database as they were (or, killed, leave a database that the next run
# completes); under the sanitizer build it must also leak nothing.  No
# root needed: the faults are injected, not made.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
X=$(dirname "$F")/../tests/fieldmarshal-faults
lv=$srcdir/levels
work=$(mktemp -d "${TMPDIR:-/tmp}/fffaults.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# How many of KIND (allocs, writes, fsyncs, renames, or writes+fsyncs) a
# fault-free run of the command makes.
count() {
	kind=$1
	shift
	FF_FAULT_COUNT="$work/count" "$X" "$@" > /dev/null 2>&1
	case $kind in
	writes+fsyncs) awk '{ print $4 + $6 }' "$work/count" ;;
	*) sed -n "s/.*$kind \([0-9]*\).*/\1/p" "$work/count" ;;
	esac
}

# Runs the command with FF_FAULT=$1 (the other words are the command);
# true when it failed with exit status 1 and a message: a line or two (a
# replay names the line that failed), each "fieldmarshal: WHY" or
# "FILE[:LINE:COL]: WHY"; false (with a FAIL line) otherwise.  OK_TOO=1
# also accepts a run that succeeds.
faulty() {
	f=$1
	shift
	FF_FAULT=$f "$X" "$@" > out 2> err
	rc=$?
	[ $rc = 0 ] && [ "${OK_TOO:-0}" = 1 ] && return 0
	if [ $rc != 1 ] || ! [ -s err ] ||
	   grep -Evq '^[^ ]+: [^ ]' err; then
		fail "FF_FAULT=$f $*: exit $rc, said: $(cat err)"
		return 1
	fi
	return 0
}

# --- -o: a failed write, fsync or rename leaves the file as it was -------
"$F" show "$lv/maze.level" -o out.level
cp out.level before.level
for kind in write fsync rename; do
	n=$(count "${kind}s" show "$lv/open.level" -o out.level)
	[ "$n" -ge 1 ] || fail "show -o made no $kind"
	i=1
	while [ "$i" -le "$n" ]; do
		"$F" show "$lv/maze.level" -o out.level
		if faulty "$kind:$i" show "$lv/open.level" -o out.level; then
			grep -q "^fieldmarshal: cannot write 'out.level': " err ||
				fail "$kind $i of -o said: $(cat err)"
			cmp -s out.level before.level || fail "$kind $i of -o changed the file"
			[ -z "$(ls out.level.tmp* 2> /dev/null)" ] ||
				fail "$kind $i of -o left $(ls out.level.tmp*)"
		fi
		i=$((i + 1))
	done
done

# --- sim --trajectories: every write of the file fails in turn (SQLite's,
# through the VFS): one line naming the file, which stays as it was ------
"$F" sim "$lv/chokepoint.level" --agents 5 --ticks 2 --trajectories t.sqlite > /dev/null
cp t.sqlite before.sqlite
n=$(count writes sim "$lv/chokepoint.level" --agents 20 --ticks 40 --trajectories t.sqlite)
[ "$n" -ge 2 ] || fail "sim --trajectories made only $n writes"
i=1
while [ "$i" -le "$n" ]; do
	cp before.sqlite t.sqlite
	if faulty "write:$i" sim "$lv/chokepoint.level" --agents 20 --ticks 40 --trajectories t.sqlite; then
		grep -q "^fieldmarshal: cannot write 't.sqlite': " err ||
			fail "write $i of --trajectories said: $(cat err)"
		cmp -s t.sqlite before.sqlite || fail "write $i of --trajectories changed the file"
		[ -z "$(ls t.sqlite.tmp* 2> /dev/null)" ] ||
			fail "write $i of --trajectories left $(ls t.sqlite.tmp*)"
	fi
	i=$((i + 1))
done

# --- every allocation of a command: it fails with a message, or prints
# what it prints without the fault ---------------------------------------
alloc_sweep() {
	"$F" "$@" > want 2> /dev/null
	n=$(count allocs "$@")
	[ "$n" -ge 5 ] || fail "'$*' made only $n allocations"
	i=1
	while [ "$i" -le "$n" ]; do
		OK_TOO=1 faulty "alloc:$i" "$@" && [ $rc = 0 ] && ! cmp -s out want &&
			fail "allocation $i of '$*': another result"
		i=$((i + 1))
	done
}
alloc_sweep show "$lv/maze.level"
alloc_sweep solve "$lv/chokepoint.level" --query 3,3
alloc_sweep sim "$lv/chokepoint.level" --ticks 3
alloc_sweep replay "$srcdir/tests/replays/crowd-funnel.replay"

# --- every allocation of a script run with -o ----------------------------
n=$(count allocs run "$lv/open.level" -e 'paint 1,1 wall' -e solve -o out.level)
[ "$n" -ge 5 ] || fail "a script run made only $n allocations"
"$F" run "$lv/open.level" -e 'paint 1,1 wall' -e solve -o want.level
i=1
while [ "$i" -le "$n" ]; do
	"$F" show "$lv/maze.level" -o out.level
	if OK_TOO=1 faulty "alloc:$i" run "$lv/open.level" -e 'paint 1,1 wall' -e solve -o out.level; then
		if [ $rc = 0 ]; then
			cmp -s out.level want.level || fail "allocation $i of run: another result"
		else
			cmp -s out.level before.level || fail "allocation $i of run changed the file"
		fi
	fi
	i=$((i + 1))
done

# --- the database: saves that fail leave it as it was --------------------
# The levels (name, size, revision) and the level 'open' itself.
state() {
	"$F" levels list | awk '{ print $1, $2, $3 }' > "$1"
	"$F" export open -o "$1.level"
}
"$F" levels list > /dev/null 2>&1   # made and seeded
state seeded
"$F" export open -o open0.level
# 'open' as it was (at a new revision), after a save over it
put_back() {
	"$F" import --force open0.level --name open > /dev/null 2>&1
	state before
}
for kind in writes fsyncs allocs; do
	n=$(count "$kind" import --force "$lv/maze.level" --name open)
	[ "$n" -ge 1 ] || fail "an import made no $kind"
	put_back
	i=1
	while [ "$i" -le "$n" ]; do
		if OK_TOO=1 faulty "${kind%s}:$i" import --force "$lv/maze.level" --name open; then
			if [ $rc = 0 ]; then
				put_back
			else
				state now
				cmp -s now before && cmp -s now.level before.level ||
					fail "${kind%s} $i of an import changed the database: $(cat err)"
			fi
		fi
		i=$((i + 1))
	done
done

# a full disk: 'levels rm' fails, keeps the level and says what to do
faulty full levels rm maze &&
	{ grep -q "disk is full (free some space on it, then try again" err ||
		fail "levels rm on a full disk said: $(cat err)"; }
"$F" levels show maze > /dev/null 2>&1 || fail "levels rm on a full disk removed the level"
# ... but the levels still read (a WAL reader writes its -shm file first):
# listed, shown and exported to another disk, as they are
"$F" levels list > list.want 2>&1
"$F" levels show maze > maze.want 2>&1
for cmd in "levels list" "levels show maze" "export maze"; do
	FF_FAULT=full "$X" $cmd > out 2> err
	rc=$?
	want=maze.want
	[ "$cmd" = "levels list" ] && want=list.want
	[ $rc = 0 ] && cmp -s out $want ||
		fail "$cmd on a full disk: exit $rc, said: $(cat err)"
done

# --- a first run killed at each of its writes -----------------------------
# Every kill leaves a database the next run finds complete, or completes:
# the schema and the bundled levels come in one transaction.
rm -rf data
n=$(count writes+fsyncs levels list)
[ "$n" -ge 2 ] || fail "a first run made only $n writes"
i=1
while [ "$i" -le "$n" ]; do
	rm -rf data
	(FF_FAULT=kill:$i "$X" levels list; exit $?) > /dev/null 2>&1
	rc=$?
	[ $rc = 137 ] || [ $rc = 0 ] || fail "kill $i: exit $rc"
	"$F" levels list 2> err | awk '{ print $1, $2, $3 }' > now
	cmp -s now seeded || fail "after kill $i the database lists $(grep -c . now) lines: $(cat now) $(cat err)"
	i=$((i + 1))
done

[ $status = 0 ] && echo "faults: all cases passed"
exit $status
