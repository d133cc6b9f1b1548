#!/bin/sh
# formats.sh - level files other tools write, through the program: every
# Moving AI map in tests/data imported and exported again is the same bytes
# (trees and all), and so is one shown as a text level and back; every
# Tiled map in tests/data/tiled imports as tests/data/tiled/expected.level
# (classes.tmx as classes.level), a TMX or TMJ export imports back the same
# (groups and classes too), and a bad map fails in one line.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
work=$(mktemp -d "${TMPDIR:-/tmp}/ffformats.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" LC_ALL=C
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

n=0
for m in "$srcdir"/tests/data/*.map; do
	name=$(basename "$m" .map)
	"$F" import "$m" > /dev/null || fail "import $name exited $?"
	"$F" export "$name" -o "$name.map" || fail "export $name exited $?"
	cmp -s "$m" "$name.map" || fail "$name.map through the database differs"
	"$F" show "$m" -o "$name.level" && "$F" show "$name.level" --format map > "$name.2.map" ||
		fail "show $name as text and back exited $?"
	cmp -s "$m" "$name.2.map" || fail "$name.map through a .level differs"
	n=$((n + 1))
done
[ $n -ge 9 ] || fail "only $n maps in tests/data"

# Tiled maps: every encoding imports as the hand-written level (a map
# with a level of its own name, as that); an export imports back to the
# same level; a bad map says where in one line
t=$srcdir/tests/data/tiled
"$F" show "$t/expected.level" > want.level
k=0
for m in "$t"/*.tmx "$t"/*.tmj; do
	b=$(basename "$m")
	w=$t/${b%.*}.level
	[ -f "$w" ] || w=$t/expected.level
	layer=
	case $b in *embedded*) layer="--layer ground" ;; esac
	case $b in *zstd*) "$F" show "$t/tmx-zstd.tmx" > /dev/null 2>&1 || continue ;; esac
	# shellcheck disable=SC2086
	"$F" import "$m" $layer --name "t$k" > /dev/null || { fail "import $b exited $?"; continue; }
	"$F" levels show "t$k" | sed "s/^name t[0-9]*\$/name $(sed -n 's/^name //p' "$w")/" \
		> got.level
	"$F" show "$w" | cmp -s - got.level ||
		fail "$b imports as $("$F" show "$w" | diff - got.level | head -n 3)"
	k=$((k + 1))
done
[ $k -ge 13 ] || fail "only $k Tiled maps imported"
# an export of the expected level, and of one with classes and groups
"$F" import "$t/tmx-csv.tmx" --name t0 --force > /dev/null || fail "import tmx-csv.tmx exited $?"
"$F" import "$t/classes.tmx" --name classes > /dev/null || fail "import classes.tmx exited $?"
"$F" show "$t/classes.level" > want-classes.level
for fmt in tmx tmj; do
	"$F" export t0 -o "back.$fmt" || fail "export --format $fmt exited $?"
	"$F" import "back.$fmt" --name "back$fmt" > /dev/null || fail "import back.$fmt exited $?"
	"$F" levels show "back$fmt" | sed "s/^name back$fmt\$/name tiled/" | cmp -s want.level - ||
		fail "an export as $fmt imports back different"
	"$F" export classes -o "c.$fmt" || fail "export classes --format $fmt exited $?"
	"$F" import "c.$fmt" --name "c$fmt" > /dev/null || fail "import c.$fmt exited $?"
	"$F" levels show "c$fmt" | sed "s/^name c$fmt\$/name classes/" |
		cmp -s want-classes.level - || fail "classes exported as $fmt imports back different"
done
"$F" import "$t/tmx-embedded.tmx" --name none > out 2> err && fail "a tile with no terrain imported"
[ "$(wc -l < err)" = 1 ] && grep -q "^$t/tmx-embedded.tmx:37:1: tile gid 6 (id 5) has no 'cost'" err ||
	fail "a tile with no terrain said: $(cat err)"
"$F" levels show none > /dev/null 2>&1 && fail "a failed import stored a level"
printf '<map orientation="orthogonal" width="2" height="1" tilewidth="16" tileheight="16">\n <layer>\n' \
	> bad.tmx
"$F" import bad.tmx 2> err && fail "a truncated TMX imported"
[ "$(wc -l < err)" = 1 ] && grep -q "^bad.tmx:3:1: " err || fail "a truncated TMX said: $(cat err)"
# --layer names a Tiled map's tile layer: with another file it is refused,
# not passed over, and nothing is stored
"$F" import "$srcdir/levels/maze.level" --layer ground --name nolayer 2> err &&
	fail "import of a text level with --layer succeeded"
[ "$(wc -l < err)" = 1 ] && grep -q "maze.level: not a Tiled map, so it has no tile layer 'ground'" err ||
	fail "a text level with --layer said: $(cat err)"
"$F" levels show nolayer > /dev/null 2>&1 && fail "an import with a bad --layer stored a level"

# --format against the output file's name: refused, nothing written
for c in "tmx clash.map" "map clash.level" "text clash.tmj" "svg clash.tmx"; do
	set -- $c
	"$F" show "$t/expected.level" --format "$1" -o "$2" 2> err; [ $? = 2 ] ||
		fail "show --format $1 -o $2 accepted"
	grep -q "'$2' names a .${2#*.} file" err || fail "show --format $1 -o $2 said: $(cat err)"
	[ -e "$2" ] && fail "show --format $1 -o $2 wrote it"
done
"$F" show "$t/expected.level" --format text -o same.level || fail "--format text -o same.level exited $?"
"$F" export t0 --format tmj -o clash.tmx 2> /dev/null; [ $? = 2 ] || fail "export --format tmj -o clash.tmx accepted"

[ $status = 0 ] && echo "formats: $n maps round trip byte for byte; $k Tiled maps import"
exit $status
