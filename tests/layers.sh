#!/bin/sh
# layers.sh - the cost layers from the command line: 'solve --show
# effective' against costs worked by hand, a temporary wall in '--show
# flow', the layer through 'show' and the store, a script that closes a
# door with 'at' recorded and replayed, errors with their file:line:col,
# and the warning of formats that cannot keep the dynamic layer.  Each
# case names what it expects.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
work=$(mktemp -d "${TMPDIR:-/tmp}/fflayers.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# a corridor 5 high between walls, a goal at its east end; wall_penalty 6,
# radius 3, so a cell d from the nearest wall costs 6 (4 - d) / 3 more,
# rounded: rows 1..5 are 1, 2, 3, 2, 1 from the walls (1 + 6, 1 + 4,
# 1 + 2, ...), the level's west and east edges count as walls, and so does
# the temporary wall at 4,2: around it 3,3 and 5,3 are sqrt 2 away (+5),
# 2,3 and 6,3 1 + sqrt 2 (+3), and 6,3 has an offset +9 too (1 + 9 + 3)
cat > corr.level <<'END'
fieldmarshal level 2
name corr
size 9 7
param wall_penalty 6
goal rect 8 1 1 5
dyn rect 4 2 1 1 wall
dyn rect 6 3 1 1 +9
grid
#########
.........
.........
.........
.........
.........
#########
end
END
"$F" solve corr.level --show effective > eff.txt || fail "solve --show effective exited $?"
cat > want.txt <<'END'
  #   #   #   #   #   #   #   #   #
  7   7   7   7   7   7   7   7   7
  7   5   5   7   #   7   5   5   7
  7   5   4   6   7   6  13   5   7
  7   5   5   5   5   5   5   5   7
  7   7   7   7   7   7   7   7   7
  #   #   #   #   #   #   #   #   #
END
cmp -s eff.txt want.txt || { fail "effective costs differ:"; diff want.txt eff.txt; }
"$F" solve corr.level --show costs | sed -n 4p | grep -qx '  1   1   1   1   1   1   1   1   1' ||
	fail "--show costs is not the painted terrain"
"$F" solve corr.level --show flow --ascii | sed -n 3p | grep -q '^....%' ||
	fail "--show flow does not draw the temporary wall as %"

# 'show' and the store give the layer back: show's text shows itself
# again unchanged, with the layer's lines; imported and exported, the
# level has the same effective costs
"$F" show corr.level > shown.level || fail "show exited $?"
"$F" show shown.level > again.level || fail "show of its own text exited $?"
cmp -s shown.level again.level || fail "show of show's text differs"
[ "$(grep '^dyn ' shown.level)" = "$(printf 'dyn rect 4 2 1 1 wall\ndyn rect 6 3 1 1 +9')" ] ||
	fail "show lost the layer: $(grep '^dyn ' shown.level)"
"$F" import corr.level > /dev/null 2>&1 || fail "import exited $?"
"$F" export corr -o stored.level || fail "export exited $?"
"$F" solve stored.level --show effective | cmp -s - want.txt ||
	fail "the stored level's effective costs differ"

# a door closed by 'at' in a script: recorded, the replay passes, and it
# holds the 'at' line; the text level the run writes keeps the layer
printf 'solve\nsim add 1,3 4\nat 5 dyn rect 7,1 1,5 wall\ntick 4\ntick 3\n' > close.txt
"$F" run corr.level close.txt --record close.replay -o out.level || fail "run exited $?"
"$F" replay close.replay > /dev/null || fail "the recorded replay failed"
grep -qx 'at 5 dyn rect 7,1 1,5 wall' close.replay || fail "the replay lost the 'at' line"
grep -qx 'dyn rect 7 1 1 5 wall' out.level || fail "the level written lost the layer: $(grep dyn out.level)"

# errors name the file, line and column
printf 'solve\nat 5 dyn rect 7,1 1,9 wall\n' > bad.txt
"$F" run corr.level bad.txt 2> err && fail "a bad scheduled edit was taken"
grep -q "bad.txt:2:15: '7,1' reaches outside the 9x7 level" err || fail "bad 'at': $(cat err)"
sed 's/^dyn rect 6 3 1 1 +9$/dyn rect 6 3 1 1 9/' corr.level > badlayer.level
"$F" show badlayer.level 2> err && fail "a bad 'dyn' line loaded"
grep -q "badlayer.level:7:18: expected +N (N 1..254) or wall, not '9'" err ||
	fail "bad 'dyn' line: $(cat err)"

# a .map and a Tiled map cannot keep the layer: a warning says so; none
# for a level without one
for fmt in map tmx tmj; do
	"$F" show corr.level --format $fmt > /dev/null 2> err || fail "show --format $fmt exited $?"
	grep -q "does not keep the dynamic layer" err || fail "--format $fmt: no warning: $(cat err)"
	"$F" show "$srcdir/levels/open.level" --format $fmt > /dev/null 2> err
	[ -s err ] && fail "--format $fmt warned without a layer: $(cat err)"
done
exit $status
