#!/bin/sh
# sim_cli.sh - 'fieldmarshal sim' from the command line: units in --set and
# in the summary, several counting lines, frames from tick 0, spawn areas
# too small for their crowd, the field's method, two threads, and
# trajectories in JuPedSim's SQLite format read the way PedPy's loaders
# read them (their SQL, and the walkable area united with shapely as PedPy
# does).  Each case names what it expects.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
lv=$srcdir/levels
work=$(mktemp -d "${TMPDIR:-/tmp}/ffsim.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
val() { sed -n "s/^$1 \([^ ]*\).*/\1/p" "$2"; }

# the summary gives SI units; two lines each report their own crossings
"$F" sim "$lv/chokepoint.level" --ticks 400 --line 40,15,40,17 --line 40,0,40,15 > out ||
	fail "sim with two lines exited $?"
grep -q '^time 20.00 s$' out || fail "no 'time 20.00 s': $(grep '^time' out)"
grep -q '^max_speed [0-9.]* m/s ([0-9.]* cells/s)$' out || fail "max_speed: $(grep max_speed out)"
grep -q '^flow [0-9.]* agents/s$' out || fail "flow: $(grep '^flow' out)"
grep -q '^max_density [0-9.]* agents/m^2$' out || fail "max_density: $(grep max_density out)"
grep -q '^line 1 40,15,40,17 crossings [1-9][0-9]* first [1-9]' out || fail "line 1: $(grep '^line 1' out)"
grep -q '^line 2 40,0,40,15 crossings 0 first 0 last 0 flow 0.0000 agents/s$' out ||
	fail "line 2 (a wall) counted: $(grep '^line 2' out)"

# --json gives the same numbers as the text
"$F" sim "$lv/chokepoint.level" --ticks 400 --line 40,15,40,17 --json > out.json ||
	fail "sim --json exited $?"
"$F" sim "$lv/chokepoint.level" --ticks 400 --line 40,15,40,17 > out.txt
[ "$(jq -r .hash out.json)" = "$(val hash out.txt)" ] || fail "json hash differs"
[ "$(jq -r .arrived out.json)" = "$(val arrived out.txt)" ] || fail "json arrived differs"
[ "$(jq -r '.lines[0].crossings' out.json)" = "$(sed -n 's/^line 1 [^ ]* crossings \([0-9]*\).*/\1/p' out.txt)" ] ||
	fail "json crossings differ"
[ "$(jq -r '.max_speed * 10000 | round' out.json)" = "$(val max_speed out.txt | tr -d .)" ] ||
	fail "json max_speed differs: $(jq .max_speed out.json) vs $(val max_speed out.txt)"
"$F" sim "$lv/chokepoint.level" --json --stats tsv 2> /dev/null
[ $? = 2 ] || fail "--json with --stats did not exit 2"

# a speed in cells per second is the same as in metres per second
a=$("$F" sim "$lv/chokepoint.level" --ticks 50 --set speed=1.2 | grep '^hash')
b=$("$F" sim "$lv/chokepoint.level" --ticks 50 --set speed=2.4cells/s | grep '^hash')
c=$("$F" sim "$lv/chokepoint.level" --ticks 50 --set speed=1.2m/s | grep '^hash')
[ "$a" = "$b" ] && [ "$a" = "$c" ] || fail "speed=1.2, 2.4cells/s and 1.2m/s differ: $a $b $c"
"$F" sim "$lv/chokepoint.level" --set speed=3km/h 2> err
[ $? = 2 ] || fail "--set speed=3km/h did not exit 2"
grep -q "m/s" err && grep -q "cells/s" err || fail "bad unit said: $(cat err)"

# frames start at tick 0
"$F" sim "$lv/chokepoint.level" --ticks 20 --frames 10 > out || fail "frames exited $?"
[ "$(grep -c '^tick ' out)" = 3 ] || fail "frames: $(grep '^tick ' out | cut -c1-20 | tr '\n' ' ')"
grep -q '^tick 0  alive 500 ' out || fail "no frame at tick 0: $(grep '^tick 0' out)"

# frames draw a named group's agents in its letter (core/glyph.h: the first
# named group's is 'a'), the default group's as 'o': one agent in each
# 1x1 area, so the cells are known
"$F" run "$lv/open.level" -e 'spawn clear' -e 'spawn add rect 3,2 1,1 1 group east' \
	-e 'spawn add rect 6,5 1,1 1' -e 'goal add cell 40,20 group east' -o groups.level ||
	fail "making groups.level failed"
"$F" sim groups.level --ticks 0 --frames > out || fail "frames of groups exited $?"
[ "$(sed -n 4p out | cut -c4)" = a ] || fail "group east's agent at 3,2 is not 'a': $(sed -n 4p out)"
[ "$(sed -n 7p out | cut -c7)" = o ] || fail "the default agent at 6,5 is not 'o': $(sed -n 7p out)"
[ "$(sed -n 2,25p out | tr -cd a | wc -c)" = 1 ] || fail "not one 'a' in the frame"

# a spawn area that cannot hold its crowd is refused before the run
"$F" run "$lv/open.level" -e 'spawn clear' -e 'spawn add rect 2,2 2,2 40' -o small.level ||
	fail "making small.level failed"
"$F" sim small.level > out 2> err && fail "an overfull spawn area ran"
grep -q "cannot spawn agents in 'small.level': spawn area 1 holds only [0-9]* of its 40 agents" err ||
	fail "overfull spawn area said: $(cat err)"
[ -s out ] && fail "an overfull spawn area printed a summary"

# trajectories: what PedPy's loaders read
"$F" sim "$lv/chokepoint.level" --agents 60 --ticks 100 --trajectories t.sqlite --every 5 \
	> out || fail "sim --trajectories exited $?"
q() { sqlite3 t.sqlite "$1"; }
[ "$(q "SELECT value FROM metadata WHERE key = 'version'")" = 2 ] || fail "version is not 2"
[ "$(q "select value from metadata where key = 'fps'")" = 4.0 ] || fail "fps: $(q "select value from metadata where key = 'fps'")"
[ "$(q 'select count(distinct frame) from trajectory_data')" = 21 ] || fail "not 21 frames (0, 5, .., 100 ticks)"
[ "$(q 'select count(*) from trajectory_data where frame = 0')" = 60 ] || fail "frame 0 has not 60 agents"
[ "$(q 'select count(*) from frame_data')" = 21 ] || fail "frame_data has not 21 rows"
[ "$(q 'select count(*) from (select frame, id, pos_x as x, pos_y as y from trajectory_data) where x < 0 or y < 0 or x > 32 or y > 16')" = 0 ] ||
	fail "positions outside the level's 32 m x 16 m"
[ "$(q 'select count(*) from trajectory_data where abs(ori_x * ori_x + ori_y * ori_y - 1) > 1e-9 and (ori_x != 0 or ori_y != 0)')" = 0 ] ||
	fail "an orientation is not a unit vector"
# the walkable area, as load_walkable_area_from_jupedsim_sqlite builds it:
# one polygon, of the level's passable area, holding every position
py=/usr/bin/python3
if $py -c 'import shapely' 2> /dev/null; then
	$py - > err 2>&1 << 'EOF' || fail "walkable area: $(cat err)"
import sqlite3, sys
import shapely.wkt
from shapely.geometry import Point
from shapely.ops import unary_union
con = sqlite3.connect("t.sqlite")
parts = [shapely.wkt.loads(w) for (w,) in con.execute("SELECT wkt FROM geometry")]
polys = [g for p in parts for g in getattr(p, "geoms", [p])]
area = unary_union(polys)
assert area.geom_type == "Polygon", area.geom_type
assert area.is_valid and area.is_simple
# chokepoint: 62 x 30 cells inside its border, less the wall column but
# its 2-cell gap, of 0.25 m^2 each
assert abs(area.area - (62 * 30 - 30 + 2) * 0.25) < 1e-9, area.area
for x, y in con.execute("select pos_x as x, pos_y as y from trajectory_data"):
    assert area.covers(Point(x, y)), (x, y)
EOF
else
	fail "no shapely for $py (the Debian package python3-shapely)"
fi

# a second run replaces a trajectory file; a file that is not one is kept
"$F" sim "$lv/chokepoint.level" --agents 10 --ticks 10 --trajectories t.sqlite > /dev/null ||
	fail "replacing a trajectory file failed"
[ "$(q 'select count(distinct frame) from trajectory_data')" = 11 ] || fail "t.sqlite was not replaced"
echo "my notes" > notes.txt
"$F" sim "$lv/chokepoint.level" --ticks 10 --trajectories notes.txt > out 2> err &&
	fail "sim overwrote a file that is not a trajectory file"
grep -q "not a trajectory file (use --force" err || fail "notes.txt said: $(cat err)"
[ "$(cat notes.txt)" = "my notes" ] || fail "notes.txt changed"
[ -s out ] && fail "a refused --trajectories ran the simulation"
"$F" sim "$lv/chokepoint.level" --ticks 10 --trajectories notes.txt --force > /dev/null ||
	fail "--force did not replace notes.txt"
"$F" sim "$lv/chokepoint.level" --ticks 10 --trajectories no/such/dir/t.sqlite > out 2> err &&
	fail "an unwritable trajectory path ran"
grep -q "cannot write 'no/such/dir/t.sqlite'" err || fail "unwritable path said: $(cat err)"
"$F" sim "$lv/chokepoint.level" --every 5 2> /dev/null
[ $? = 2 ] || fail "--every without --trajectories did not exit 2"
ls ./*tmp* 2> /dev/null && fail "temporary files left: $(ls ./*tmp*)"
# a run stopped by a signal (SIGTERM: a shell's background job ignores
# SIGINT): the file asked for is as it was, the temporary one is gone, and
# one line says so.  The signal comes as soon as the temporary file is
# there: from then on, however early, it must be removed.
cp t.sqlite keep.sqlite
"$F" sim "$lv/chokepoint.level" --agents 60 --ticks 100000 --keep-arrived \
	--trajectories t.sqlite > /dev/null 2> err &
pid=$!
i=0
while ! ls ./t.sqlite.tmp* > /dev/null 2>&1 && [ $i -lt 1000 ]; do
	sleep 0.01
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || fail "sim stopped by SIGTERM exited $rc"
cmp -s t.sqlite keep.sqlite || fail "a sim stopped by SIGTERM changed t.sqlite"
ls ./*tmp* 2> /dev/null && fail "a sim stopped by SIGTERM left $(ls ./*tmp*)"
[ "$(grep -c . err)" = 1 ] &&
	grep -q "^fieldmarshal: interrupted: 't.sqlite' not written, left as it was$" err ||
	fail "a sim stopped by SIGTERM said: $(cat err)"

# --method: a hierarchical field serves the default class without routing;
# it refuses what it cannot count, in one line, before running
"$F" sim "$lv/chokepoint.level" --method bogus 2> err
[ $? = 2 ] || fail "--method bogus did not exit 2"
grep -q "unknown method 'bogus' (fmm, fmm2, dijkstra or hier)" err || fail "bogus said: $(cat err)"
"$F" sim "$lv/chokepoint.level" --method hier > out || fail "sim --method hier exited $?"
[ "$(val arrived out)" = 500 ] || fail "hier: $(val arrived out) of 500 arrived"
"$F" sim "$lv/harbour.level" --method hier > out 2> err && fail "hier ran a level of boats"
grep -q "harbour.level: --method hier solves for the default movement class only, not group boats's class 'boat'" err ||
	fail "hier with classes said: $(cat err)"
[ -s out ] && fail "a refused hier run printed statistics"
"$F" sim "$lv/chokepoint.level" --method hier --set route_interval=2 > out 2> err &&
	fail "hier ran with routing"
grep -q "chokepoint.level: --method hier does not count the crowd; set route_interval to 0" err ||
	fail "hier with routing said: $(cat err)"

# --threads: a crowd of 6,000 on two threads ends as on one, hash and all
{ printf 'fieldmarshal level 2\nname crowd\nsize 120 60\nterrain grass . 1\n'
  printf 'goal rect 110 0 10 60\nspawn rect 0 0 100 60 6000\ngrid\n'
  i=0; while [ $i -lt 60 ]; do printf '%120s\n' '' | tr ' ' .; i=$((i + 1)); done
  echo end; } > crowd.level
"$F" sim crowd.level --ticks 150 --line 105,0,105,60 --threads 1 > one || fail "--threads 1 exited $?"
"$F" sim crowd.level --ticks 150 --line 105,0,105,60 --threads 2 > two || fail "--threads 2 exited $?"
[ "$(val spawned one)" = 6000 ] || fail "crowd.level spawned $(val spawned one)"
[ "$(val arrived one)" -gt 0 ] || fail "nobody arrived on crowd.level in 150 ticks"
cmp -s one two || fail "two threads differ from one: $(diff one two | head -4)"
"$F" sim crowd.level --threads 3 2> err
[ $? = 2 ] || fail "--threads 3 did not exit 2"
grep -q "threads takes 0, 1 or 2, not '3'" err || fail "--threads 3 said: $(cat err)"

[ $status = 0 ] && echo "sim_cli: all cases passed"
exit $status
