#!/bin/sh
# cli.sh - the command line on awkward input: output to a pipe, a device or
# a full disk, files with NUL bytes, exit statuses, a level with a goal
# under walls, an update of part of a replay and an interrupted bench.  Each
# case names what it expects.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
lv=$srcdir/levels
work=$(mktemp -d "${TMPDIR:-/tmp}/ffcli.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# -o to a FIFO writes into it and leaves it a FIFO
mkfifo fifo
timeout 20 cat fifo > fromfifo &   # a replaced FIFO never opens
"$F" show "$lv/maze.level" -o fifo || fail "show -o fifo exited $?"
wait
[ -p fifo ] || fail "-o replaced the FIFO"
"$F" show "$lv/maze.level" | cmp -s - fromfifo || fail "the FIFO did not get the level"

# a FIFO, a device or a directory where a file is meant: refused at once,
# without blocking; more than 1 GiB (a file, a pipe): refused, not read on
mkfifo infifo
for c in "show infifo" "show /dev/zero" "run $lv/maze.level /dev/zero" "import infifo" \
	"show indir"; do
	# shellcheck disable=SC2086
	mkdir -p indir; timeout 20 "$F" $c > /dev/null 2> err
	rc=$?
	[ $rc = 1 ] || fail "'$c' exited $rc"
	grep -q "cannot read '[^']*': a [A-Za-z]*, not a regular file" err || fail "'$c' said: $(cat err)"
done
printf 'fieldmarshal replay 1\nlevel /dev/zero\n' > zero.replay
timeout 20 "$F" replay zero.replay 2> err && fail "a replay of the level /dev/zero passed"
grep -q "'/dev/zero': a device" err || fail "a replay of the level /dev/zero said: $(cat err)"
truncate -s 1025M big.level
"$F" show big.level 2> err && fail "a 1025 MiB level loaded"
grep -q "cannot read 'big.level': larger than 1024 MiB" err || fail "a 1025 MiB level: $(cat err)"
head -c 1025M /dev/zero | timeout 60 "$F" show - 2> err && fail "1025 MiB on stdin loaded"
grep -q "cannot read 'standard input': larger than 1024 MiB" err || fail "1025 MiB on stdin: $(cat err)"
rm -f big.level

# -o to a directory is an error, and the directory stays
mkdir outdir
"$F" show "$lv/maze.level" -o outdir 2> err && fail "show -o DIR succeeded"
grep -qi "is a directory" err || fail "show -o DIR said: $(cat err)"

# -o through a symbolic link writes the file it names, whether that exists
# yet or not, and the link stays (a dangling one was replaced by a file)
mkdir linked
ln -s linked/new.level dangling
ln -s linked/old.level existing
"$F" show "$lv/open.level" -o linked/old.level
for link in dangling existing; do
	"$F" show "$lv/maze.level" -o $link || fail "show -o through the $link link failed"
	[ -L $link ] || fail "-o replaced the $link link"
	cmp -s $link "$lv/maze.level" || fail "the $link link's target did not get the level"
done

# a NUL byte in a script is an error at its line and column
printf 'paint 1,1 wall\nrect 2,2 \0junk\npaint 2,2 wall\n' > nul.txt
"$F" run "$lv/chokepoint.level" nul.txt 2> err && fail "a script with a NUL byte ran"
grep -q "nul.txt:2:10: a NUL byte" err || fail "NUL script said: $(cat err)"

# output lost on a full disk: every command says so and fails
if [ -w /dev/full ]; then
	"$F" levels list > /dev/null 2>&1   # the database made and seeded
	"$F" run "$lv/maze.level" -e 'solve' --record full.replay > /dev/null 2>&1
	for c in "levels list" "levels show maze" "solve maze" "sim chokepoint --ticks 3" \
		"replays list" "show maze" "export maze" "replay full.replay" "--help" \
		"--version" "solve --help" "run $lv/maze.level -e solve -o -"; do
		# shellcheck disable=SC2086
		"$F" $c > /dev/full 2> err
		rc=$?
		[ $rc = 1 ] || fail "'$c > /dev/full' exited $rc"
		[ "$(grep -c . err)" = 1 ] && grep -q "^fieldmarshal: cannot write to standard output: No space left on device$" err ||
			fail "'$c > /dev/full' said: $(cat err)"
	done
fi

# bench on a level that does not load fails
"$F" bench --quick no-such.level > /dev/null 2>&1 && fail "bench on a missing level exited 0"

# walls painted over the only goal: the saved file loads again, solve says why
"$F" run "$lv/chokepoint.level" -e 'goal clear' -e 'goal add cell 5,5' \
	-e 'paint 5,5 wall' -o gw.level || fail "saving a goal under walls failed"
"$F" show gw.level > /dev/null || fail "a saved level with a goal under walls does not load"
"$F" solve gw.level 2> err && fail "solving a goal under walls succeeded"
grep -q "^fieldmarshal: cannot solve 'gw.level': goal 1 at 5,5 lies entirely on walls$" err ||
	fail "solve of a goal under walls said: $(cat err)"
"$F" sim gw.level 2> err && fail "a sim of a goal under walls succeeded"
grep -q "^fieldmarshal: cannot solve 'gw.level': goal 1 at 5,5 lies entirely on walls$" err ||
	fail "sim of a goal under walls said: $(cat err)"

# solve --group: the group's goals by its class, values worked by hand on
# levels/harbour.level: a boat from 0,2 takes the river (4 diagonals, the
# rest straight: 41 + 4 sqrt 2), never land; a flyer crosses the hedge
# (6) but not the high wall at its end; walkers go round by the gap
# (5 + 2 sqrt 2); a group or class the level has not: one line
"$F" solve "$lv/harbour.level" --group boats --query 0,2 --query 0,5 > out ||
	fail "solve --group boats exited $?"
printf '0 2 46.6568542\n0 5 unreachable\n' | cmp -s - out || fail "boats: $(cat out)"
"$F" solve "$lv/harbour.level" --group flyers --query 30,3 --query 31,0 > out
printf '30 3 6\n31 0 unreachable\n' | cmp -s - out || fail "flyers: $(cat out)"
"$F" solve "$lv/harbour.level" --group default --query 30,10 > out
printf '30 10 7.82842712\n' | cmp -s - out || fail "walkers: $(cat out)"
# without --group, the level's field as the editor opens it: on squads
# (no goal of the default group) east's, 79 straight steps from the west
# end, where west's own goal lies (it solved every group's goals at once)
"$F" solve "$lv/squads.level" --query 0,11 --query 79,11 > out
printf '0 11 79\n79 11 0\n' | cmp -s - out || fail "squads without --group: $(cat out)"
# queries alone stop once their cells are settled: the values of the full
# field (with --show it solves it all), on a Moving AI map
for m in dijkstra fmm2; do
	for show in "" "--show integration"; do
		"$F" solve "$srcdir/tests/data/den312d.map" --method $m --goal 13,12 \
			--query 10,11 --query 40,60 --query 0,0 --query 12,33 $show > full ||
			fail "solve --query $show exited $?"
		tail -n 4 full > "out$show"
	done
	cmp -s out "out--show integration" ||
		fail "$m --query: $(cat out) against $(cat "out--show integration")"
done
printf 'type octile\nheight 300\nwidth 300\nmap\n' > open300.map
awk 'BEGIN { for (y = 0; y < 300; y++) { s = ""; for (x = 0; x < 300; x++) s = s "."; print s } }' >> open300.map
"$F" solve open300.map --goal 150,150 --query 153,157 > out
printf '153 157 8.24264069\n' | cmp -s - out || fail "open300 --query: $(cat out)"
"$F" solve "$lv/harbour.level" --group pirates 2> err && fail "an unknown group solved"
grep -q "^fieldmarshal: .*harbour.level has no group 'pirates' (its groups: default, boats, flyers)$" err ||
	fail "an unknown group said: $(cat err)"
"$F" solve "$lv/harbour.level" --class ship 2> err && fail "an unknown class solved"
grep -q "has no movement class 'ship' (its classes: boat, flyer)$" err ||
	fail "an unknown class said: $(cat err)"
# hier solves the default class only: a class of its own is refused, not
# solved with the walkers' costs
"$F" solve "$lv/harbour.level" --method hier --group flyers --query 30,3 2> err &&
	fail "hier solved for the flyers"
grep -q "^fieldmarshal: --method hier solves for the default movement class only, not 'flyer'" err ||
	fail "hier with a class said: $(cat err)"

# control characters in a message show escaped: a file name, a CR CR LF line
"$F" show "$(printf 'no\033[2Jsuch\r.level')" 2> err && fail "a missing file loaded"
grep -q "no\\\\x1b\\[2Jsuch\\\\r.level" err || fail "a name with controls said: $(cat -v err)"
printf 'fieldmarshal level 1\r\r\nname t\r\r\n' > crcr.level
"$F" show crcr.level 2> err && fail "a CR CR LF level loaded"
grep -q "^crcr.level:1:20: unsupported format version '1\\\\r' (this program reads 1 and 2)$" err ||
	fail "a CR CR LF level said: $(cat -v err)"

# replay --update --until keeps the lines after LINE
printf 'solve\npaint 3,3 wall\nsim spawn 20\ntick 5\n' > s.txt
"$F" run "$lv/chokepoint.level" s.txt --record r.replay || fail "record failed"
cp r.replay r0.replay
n=$(wc -l < r.replay)
"$F" replay --update --until $((n - 3)) r.replay > /dev/null || fail "update --until failed"
cmp -s r.replay r0.replay || fail "update --until changed the replay (was $n lines, now $(wc -l < r.replay))"

# a replay with CRLF line ends: 'replays add' takes what 'replay' runs
printf 'fieldmarshal replay 1\r\nlevel inline\r\n' > crlf.replay
sed -n '/^fieldmarshal level/,/^end$/p' "$lv/maze.level" | sed 's/$/\r/' >> crlf.replay
printf 'solve\r\nexpect phase done\r\n' >> crlf.replay
"$F" replay crlf.replay > /dev/null || fail "a CRLF replay does not run"
"$F" replays add crlf crlf.replay 2> err || fail "replays add refused a CRLF replay: $(cat err)"

# a bench stopped by a signal in its store part leaves no scratch database
mkdir tmp
TMPDIR=$work/tmp "$F" bench --quick > /dev/null 2>&1 &
pid=$!
i=0
while [ -z "$(ls -A tmp)" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
if [ -z "$(ls -A tmp)" ]; then
	fail "the bench made no scratch database"
else
	kill -TERM $pid
fi
wait $pid
[ -z "$(ls -A tmp)" ] || fail "an interrupted bench left $(ls -A tmp)"

# --arrows: the swamp of the teaching level; cheapest (the default) points
# 9,4 straight out (east, worth 1 + 5), lowest at the goal (northeast)
cat > teach.level <<'LEVEL'
fieldmarshal level 1
name teach
size 12 7
terrain grass . 1
terrain swamp s 5
terrain wall # wall
goal cell 10 3
grid
............
............
.....#......
.....#..ss..
.....#..ss..
............
............
end
LEVEL
at94() { LC_ALL=C.UTF-8 sed -n '5s/^.\{9\}\(.\).*/\1/p' "$1"; }
LC_ALL=C.UTF-8 "$F" solve teach.level --show flow > cheap.txt || fail "solve --show flow exited $?"
LC_ALL=C.UTF-8 "$F" solve teach.level --show flow --arrows lowest > low.txt ||
	fail "--arrows lowest exited $?"
[ "$(at94 cheap.txt)" = "→" ] || fail "cheapest arrow at 9,4: $(sed -n 5p cheap.txt)"
[ "$(at94 low.txt)" = "↗" ] || fail "lowest arrow at 9,4: $(sed -n 5p low.txt)"
"$F" solve teach.level --arrows steepest 2> err; [ $? = 2 ] || fail "--arrows steepest did not exit 2"
grep -q "unknown arrow rule 'steepest'" err || fail "--arrows steepest said: $(cat err)"

# solve --show flow --ascii tells the 8 directions apart: on open ground
# around one goal every direction occurs, each with its own glyph
"$F" solve "$lv/open.level" --show flow --ascii > open.txt || fail "solve --ascii exited $?"
n=$(tr -d '#*\n' < open.txt | fold -w1 | sort -u | tr -d '\n')
[ "$n" = "<>^bdpqv" ] || fail "ASCII arrows are '$n', not 8 distinct ones"

# solve --los: on open ground each arrow is the one of the eight nearest
# the straight line to the goal (hand-worked from the angles: W up to
# 22.5 degrees off the row, NW 'q' beyond), where the grid's cheapest
# steps run diagonally then straight
printf 'type octile\nheight 3\nwidth 7\nmap\n.......\n.......\n.......\n' > o7.map
"$F" solve o7.map --goal 0,0 --los --show flow --ascii > los.txt || fail "solve --los exited $?"
[ "$(tr '\n' /  < los.txt)" = "*<<<<<</^qq<<<</^qqqq<</" ] || fail "--los arrows: $(cat los.txt)"
"$F" solve o7.map --goal 0,0 --show flow --ascii > grid.txt || fail "solve exited $?"
[ "$(tr '\n' /  < grid.txt)" = "*<<<<<</^qqqqqq/^qqqqqq/" ] || fail "grid arrows: $(cat grid.txt)"

# sim --frames draws in the editor's glyphs: '*' the goal cells, 'o' and
# digits agents, never '+' (the editor's frontier)
"$F" sim "$lv/chokepoint.level" --ticks 1 --frames > frames.txt || fail "sim --frames exited $?"
grep -q '\*\*\*\*\*\*' frames.txt || fail "no goal '*' in the frame"
grep -q '+' frames.txt && fail "a '+' in the frame"

# large levels: a side above 16384 is refused at its header line; a full
# solve that would not fit in the memory left (here ulimit -v) is refused
# up front with the bytes it needs, not killed half way
printf 'type octile\nheight 2\nwidth 16385\nmap\n' > toowide.map
"$F" show toowide.map 2> err && fail "a map 16385 wide loaded"
grep -q "toowide.map:3:1: expected 'width W' with W in 1..16384" err ||
	fail "a map 16385 wide: $(cat err)"
{ printf 'type octile\nheight 4096\nwidth 16384\nmap\n'
  yes "$(head -c 16384 /dev/zero | tr '\0' .)" | head -n 4096; } > wide.map
# (a sanitizer build cannot start in 600 MB of address space: skipped)
if (ulimit -v 600000 && "$F" --help) > /dev/null 2>&1; then
	(ulimit -v 600000 && "$F" solve wide.map --query 1,1) > /dev/null 2> err; rc=$?
	[ $rc = 1 ] || fail "solve in 600 MB exited $rc"
	grep -q "cannot solve 'wide.map': a full field of 16384x4096 cells needs 746 MB, more than the [0-9]* MB available" err ||
		fail "solve in 600 MB said: $(cat err)"
	(ulimit -v 600000 && "$F" run wide.map -e 'goal add cell 5,5' -e solve) > /dev/null 2> err; rc=$?
	[ $rc = 1 ] || fail "run ... solve in 600 MB exited $rc"
	grep -q "solve: a full field of 16384x4096 cells needs 746 MB, more than the [0-9]* MB available" err ||
		fail "run ... solve in 600 MB said: $(cat err)"
fi
rm -f wide.map

# sim --set runs the 'set' command: the same rule, the same words as a
# script's 'set' (it once had its own)
"$F" sim "$lv/chokepoint.level" --ticks 1 --set speed=abc 2> err; [ $? = 2 ] ||
	fail "sim --set speed=abc did not exit 2"
"$F" run "$lv/chokepoint.level" -e 'set speed abc' 2> err2
m=$(sed -n 's/.*: //p' err2 | head -n 1)
grep -qF -- "--set speed=abc: $m" err || fail "sim --set said '$(head -n 1 err)', set said '$m'"
"$F" sim "$lv/chokepoint.level" --ticks 1 --set arrival_radius=2 > /dev/null ||
	fail "sim --set arrival_radius=2 failed"

# run -o writes the format the file's name asks for, as show -o does: a
# Tiled map to .tmx and .tmj, a .map to .map (it wrote a text level under
# every name, which then did not read as the map it claimed to be)
"$F" run "$lv/maze.level" -e 'paint 1,1 wall' -o want.level
for ext in tmx tmj map; do
	"$F" run "$lv/maze.level" -e 'paint 1,1 wall' -o "out.$ext" 2> /dev/null ||
		fail "run -o out.$ext exited $?"
	"$F" show want.level -o "want.$ext" 2> /dev/null
	cmp -s "out.$ext" "want.$ext" || fail "run -o out.$ext is not what show -o writes"
done
"$F" run "$lv/maze.level" -e 'dyn cell 1,1 wall' -o out.tmx 2> err
grep -q 'does not keep the dynamic layer' err || fail "run -o out.tmx lost the dynamic layer silently"

# a replay whose level cannot be loaded says why on its own line, FILE:2:7
# (it printed the loader's error, then "cannot load level 'x' (see above)")
printf 'fieldmarshal replay 1\nlevel no-such.level\nbegin\n' > nolevel.replay
printf 'fieldmarshal level 2\nname b\nsize 3 2\ngrid\n...\n..\nend\n' > badrow.level
printf 'fieldmarshal replay 1\nlevel badrow.level\nbegin\n' > badlevel.replay
for r in nolevel badlevel; do
	"$F" replay "$r.replay" > /dev/null 2> err && fail "replay $r.replay exited 0"
	[ "$(wc -l < err)" = 1 ] && grep -q "^$r.replay:2:7: cannot load level '[a-z-]*.level': ." err ||
		fail "replay $r.replay said: $(cat err)"
done
grep -q "badrow.level:6:3: row 1 has 2 cells, expected 3" err || fail "the reason is lost: $(cat err)"

[ $status = 0 ] && echo "cli: all cases passed"
exit $status
