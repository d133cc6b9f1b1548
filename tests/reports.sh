#!/bin/sh
# reports.sh - what other tools read: --json parsed by jq and matched against
# the text outputs' numbers and hand-worked values, 'replay --tap' run by
# prove (which must pass the shipped replays and fail a tampered one), and
# 'replay --junit' validated against the JUnit schema (tests/data/JUnit.xsd).
# Skips (77) when jq, prove or xmllint is missing; quickstart installs them.
set -u
: "${FIELDMARSHAL:?set by make check}" "${srcdir:?set by make check}"
F=$FIELDMARSHAL
for t in jq prove xmllint; do
	command -v $t > /dev/null || { echo "SKIP: no $t"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/ffreports.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" LC_ALL=C
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# replays and their levels, copied so that a tampered one resolves its level
mkdir -p tests levels
cp -R "$srcdir/tests/replays" tests/
cp "$srcdir"/levels/*.level levels/
chmod -R u+w tests levels

# --- solve --json ------------------------------------------------------------
lv=levels/chokepoint.level
"$F" solve $lv --json -q 1,1 -q 0,0 -q 40,15 > solve.json || fail "solve --json exited $?"
jq -e . solve.json > /dev/null || fail "solve --json is not JSON"
# the summary line's numbers
"$F" solve $lv > summary.txt
want=$(sed 's/.*, \([0-9]*\) cells reachable, largest value \(.*\)$/\1 \2/' summary.txt)
got=$(jq -r '"\(.reachable) \(.largest)"' solve.json | awk '{ printf "%d %.9g\n", $1, $2 }')
[ "$got" = "$want" ] || fail "solve --json reachable/largest '$got', text says '$want'"
# the queries, against the text and by hand: 1,1 is 25 + 14*sqrt(2) from the
# gap and 14 more from the goal (README)
"$F" solve $lv -q 1,1 -q 0,0 -q 40,15 > q.txt
jq -r '.queries[] | "\(.x) \(.y) \(.value // "unreachable")"' solve.json |
	awk '$3 == "unreachable" { print; next } { printf "%d %d %.9g\n", $1, $2, $3 }' > q.json.txt
cmp -s q.txt q.json.txt || fail "solve --json queries differ from the text: $(cat q.json.txt)"
jq -e '.queries[0].value - (39 + 14 * (2 | sqrt)) | fabs < 1e-9' solve.json > /dev/null ||
	fail "solve --json 1,1 is $(jq .queries[0].value solve.json), not 39 + 14*sqrt(2)"
jq -e '.queries[1] == {"x": 0, "y": 0, "reachable": false, "value": null}' solve.json \
	> /dev/null || fail "solve --json: the wall at 0,0 is $(jq -c .queries[1] solve.json)"
jq -e '[.level, .width, .height, .method, .connectivity] == ["chokepoint", 64, 32, "dijkstra", 8]' \
	solve.json > /dev/null || fail "solve --json header: $(jq -c . solve.json)"
"$F" solve $lv --json --show flow > /dev/null 2>&1 && fail "solve --json --show was accepted"

# --- levels list --json, replays list --json -----------------------------------
"$F" levels list > levels.txt || fail "levels list exited $?"
"$F" levels list --json > levels.json || fail "levels list --json exited $?"
jq -r '.[] | "\(.name) \(.width)x\(.height) \(.revision)"' levels.json > l.json.txt
awk 'NR > 1 { print $1, $2, $3 }' levels.txt > l.txt
cmp -s l.txt l.json.txt || fail "levels list --json differs from the text: $(cat l.json.txt)"
[ "$(jq length levels.json)" = "$(ls levels/*.level | wc -l)" ] ||
	fail "levels list --json has $(jq length levels.json) levels, levels/ has $(ls levels/*.level | wc -l)"
jq -e '.[0].modified | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")' \
	levels.json > /dev/null || fail "levels list --json time: $(jq .[0].modified levels.json)"
"$F" replays add maze-run tests/replays/solve-maze.replay || fail "replays add failed"
"$F" replays list --json > replays.json || fail "replays list --json exited $?"
[ "$(jq -r '.[] | "\(.name) \(.bytes)"' replays.json)" = \
	"maze-run $(wc -c < tests/replays/solve-maze.replay | tr -d ' ')" ] ||
	fail "replays list --json: $(jq -c . replays.json)"
"$F" levels show maze --json > /dev/null 2>&1 && fail "levels show --json was accepted"

# --- replay --json -------------------------------------------------------------
r=tests/replays/solve-open.replay
nexp=$(grep -c '^expect ' $r)
"$F" replay --json $r > replay.json || fail "replay --json exited $?"
jq -e --argjson n "$nexp" '.passed == 1 and .failed == 0 and .replays[0].ok and
	.replays[0].passed == $n and (.replays[0].expectations | length) == $n and
	all(.replays[0].expectations[]; .status == "pass")' replay.json > /dev/null ||
	fail "replay --json of $r: $(jq -c '.replays[0] | del(.expectations)' replay.json)"
"$F" replay $r > replay.txt
[ "$(jq -r '.replays[0] | "\(.file): \(.commands) commands, \(.passed) checks passed"' replay.json)" = \
	"$(cat replay.txt)" ] || fail "replay --json counts differ from '$(cat replay.txt)'"
# the actual values are the expected ones
grep '^expect value' $r | awk '{ print $3, $4 }' > vals.txt
jq -r '.replays[0].expectations[] | select(.expect | startswith("value ")) |
	"\(.expect | split(" ")[1]) \(.actual)"' replay.json > vals.json.txt
cmp -s vals.txt vals.json.txt || fail "replay --json actual values: $(cat vals.json.txt)"

# a tampered copy: one expected value plus 1
line=$(grep -n '^expect value ' $r | sed -n 2p | cut -d: -f1)
awk -v n="$line" 'NR == n { $NF = $NF + 1 } { print }' $r > tests/replays/tampered.replay
t=tests/replays/tampered.replay
"$F" replay --json $t > bad.json && fail "replay --json of a tampered replay exited 0"
jq -e --argjson l "$line" '.failed == 1 and (.replays[0].failure.line == $l) and
	([.replays[0].expectations[] | select(.status == "fail") | .line] == [$l]) and
	([.replays[0].expectations[] | select(.line > $l) | .status] | all(. == "not run"))' \
	bad.json > /dev/null || fail "replay --json of the tampered replay: $(jq -c . bad.json)"

# --- replay --tap, run by prove -------------------------------------------------
prove -e "$F replay --tap" tests/replays/[!t]*.replay > prove.out 2>&1 ||
	{ fail "prove refused the shipped replays"; cat prove.out; }
n=$(ls tests/replays/[!t]*.replay | wc -l)
grep -q "Files=$n, " prove.out || fail "prove ran not $n files: $(tail -n 3 prove.out)"
if prove -e "$F replay --tap" $t > prove.bad 2>&1; then
	fail "prove passed a tampered replay"
fi
grep -q "Failed 2/" prove.bad || fail "prove on the tampered replay: $(cat prove.bad)"
"$F" replay --tap $t > tap.out
grep -q "^not ok [0-9]* - $t:$line: expect value" tap.out ||
	fail "--tap: no failing point for line $line: $(cat tap.out)"
grep -q "^  message: '$t:$line:[0-9]*: expected value" tap.out ||
	fail "--tap: the diagnosis lacks the failing line: $(cat tap.out)"

# --- replay --junit ----------------------------------------------------------
xsd=$srcdir/tests/data/JUnit.xsd
"$F" replay --junit all.xml tests/replays/[!t]*.replay > /dev/null || fail "replay --junit exited $?"
xmllint --noout --schema "$xsd" all.xml 2> xv.err || fail "all.xml: $(cat xv.err)"
[ "$(xmllint --xpath 'count(//testsuite)' all.xml)" = "$n" ] ||
	fail "--junit: not $n testsuites"
[ "$(xmllint --xpath 'count(//failure) + count(//error)' all.xml)" = 0 ] ||
	fail "--junit: failures in the shipped replays"
"$F" replay --junit bad.xml $t 2> /dev/null && fail "replay --junit of a tampered replay exited 0"
xmllint --noout --schema "$xsd" bad.xml 2> xv.err || fail "bad.xml: $(cat xv.err)"
[ "$(xmllint --xpath 'string(//testsuite/@failures)' bad.xml)" = 2 ] ||
	fail "--junit: tampered suite failures $(xmllint --xpath 'string(//testsuite/@failures)' bad.xml)"
xmllint --xpath "string(//testcase[starts-with(@name, 'line $line:')]/failure)" bad.xml |
	grep -q "$t:$line:[0-9]*: expected value" || fail "--junit: the failure lacks its line"

[ $status = 0 ] && echo "reports: JSON, TAP and JUnit all check"
exit $status
