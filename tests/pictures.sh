#!/bin/sh
# pictures.sh - the program's pictures: every SVG well formed (xmllint
# --noout), its arrows and numbers counted against the text outputs, every
# PNG decoded by libpng (tests/pngdump) at the size the docs give, and a
# Moving AI map's PNG checked pixel by pixel against the map's characters.
# Skips (77) without xmllint; quickstart installs it.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}" "${PNGDUMP:?set by make check}"
F=$FIELDMARSHAL
command -v xmllint > /dev/null || { echo "SKIP: no xmllint"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ffpictures.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" LC_ALL=C
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# png_size FILE: "W H" as libpng reads it
png_size() { "$PNGDUMP" "$1" | head -n 1; }

# every level, every field, both formats
for lv in "$srcdir"/levels/*.level; do
	n=$(basename "$lv" .level)
	set -- $(sed -n 's/^size \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$lv")
	w=$1 h=$2
	k=$((512 / (w > h ? w : h)))
	[ $k -ge 1 ] || k=1
	pw=$((w * k > 168 ? w * k : 168)) ph=$((h * k + 36))
	"$F" show "$lv" -o "$n.svg" || fail "show $n -o $n.svg exited $?"
	"$F" show "$lv" -o "$n.png" || fail "show $n -o $n.png exited $?"
	for f in costs integration flow; do
		"$F" solve "$lv" --show $f -o "$n-$f.svg" || fail "solve $n --show $f -o svg exited $?"
		"$F" solve "$lv" --show $f --format png > "$n-$f.png" ||
			fail "solve $n --show $f --format png exited $?"
	done
	for s in "$n".svg "$n"-*.svg; do
		xmllint --noout "$s" 2> xl.err || fail "$s: $(cat xl.err)"
	done
	for p in "$n".png "$n"-*.png; do
		got=$(png_size "$p") || { fail "libpng refused $p"; continue; }
		[ "$got" = "$pw $ph" ] || fail "$p is $got, expected $pw $ph ($w x $h cells, $k px each)"
	done
done

# arrows: one per arrow of the text field (neither wall, goal nor
# unreachable: # * x); numbers: one per reachable cell
lv=$srcdir/levels/chokepoint.level
"$F" solve "$lv" --show flow --ascii > flow.txt
want=$(tr -d '#*x\n' < flow.txt | wc -c)
got=$(xmllint --xpath "count(//*[local-name()='g'][@id='arrows']/*[local-name()='use'])" chokepoint-flow.svg)
[ "$got" = "$want" ] || fail "chokepoint flow.svg has $got arrows, the text $want"
reach=$("$F" solve "$lv" | sed 's/.*, \([0-9]*\) cells reachable.*/\1/')
got=$(xmllint --xpath "count(//*[local-name()='g'][@id='numbers']/*[local-name()='text'])" \
	chokepoint-integration.svg)
[ "$got" = "$reach" ] || fail "chokepoint integration.svg has $got numbers, $reach cells reachable"
# 1,1 is 39 + 14*sqrt(2) = 58.8 (README); its number sits at the centre of
# cell 1,1 (20 units a cell: 1280 / 64)
xmllint --xpath "//*[local-name()='text'][@x=30][@y=32]/text()" chokepoint-integration.svg \
	> t11.txt 2> /dev/null
[ "$(cat t11.txt)" = "58.8" ] || fail "cell 1,1 of the integration picture reads '$(cat t11.txt)'"

# a Moving AI map, one pixel per cell: '@' and 'T' black, '.' white
m=$srcdir/tests/data/maze512-1-0.map
"$F" show "$m" -o maze.png || fail "show maze512 -o png exited $?"
"$PNGDUMP" maze.png > maze.txt || fail "libpng refused maze.png"
[ "$(head -n 1 maze.txt)" = "512 548" ] || fail "maze.png is $(head -n 1 maze.txt)"
tail -n +5 "$m" > maze.rows
sed -n '2,513p' maze.txt | awk 'NR == FNR { row[FNR] = $0; next }
	{
		for (x = 1; x <= length($0); x++) {
			c = substr($0, x, 1); p = substr(row[FNR], 6 * x - 5, 6)
			want = (c == "@" || c == "T") ? "000000" : "ffffff"
			if (p != want) { printf "pixel %d,%d is %s for %s\n", x - 1, FNR - 1, p, c; bad++ }
			if (bad > 5) exit 1
		}
	} END { exit bad > 0 }' - maze.rows || fail "maze.png differs from the map"

# what is refused
"$F" solve "$lv" --format svg > /dev/null 2>&1; [ $? = 2 ] || fail "--format svg without --show accepted"
"$F" solve "$lv" --show flow -o flow.txt > /dev/null 2>&1; [ $? = 2 ] || fail "-o FILE.txt accepted"
"$F" solve "$lv" --show flow --format svg -q 1,1 > /dev/null 2>&1; [ $? = 2 ] ||
	fail "a picture and queries both on stdout accepted"
"$F" solve "$lv" --show flow --format svg -o clash.png 2> err; [ $? = 2 ] ||
	fail "--format svg -o clash.png accepted"
grep -q "'clash.png' names a .png file" err || fail "--format svg -o clash.png said: $(cat err)"
[ -e clash.png ] && fail "--format svg -o clash.png wrote it"

[ $status = 0 ] && echo "pictures: SVG well formed, PNG decoded, counts and pixels match"
exit $status
