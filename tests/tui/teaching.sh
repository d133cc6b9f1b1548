#!/bin/sh
# teaching.sh - docs/teaching.md, typed: the walkthrough's level is opened
# in an 80x24 terminal (the documented minimum) in a UTF-8 locale, the keys
# of every table row are typed in order, and after each row every `code`
# fragment of its right-hand column (outside [brackets]) must be on the
# screen.  Then the recording the lesson made (after a simulation) is
# replayed with the document's own commands, headless and with --tui.  So
# the document and the program cannot drift apart.  (What a bracketed
# command is, check_tui checks against the key table.)
#
# A keys cell is code spans typed in order: ':command' is typed and Enter
# pressed; Space, Enter, Esc, Tab and Ctrl-X are those keys; any other
# span is typed as it stands, its blanks separating keys.  '\|' in a table
# is '|'.
. "${srcdir:-.}/tests/tui/lib.sh"

doc="$srcdir/docs/teaching.md"
FF_COLS=80 FF_ROWS=24
export LC_ALL=C.UTF-8

# press SPAN: types one code span of a keys cell
press() {
	case "$1" in
	:*) keys :; keys -l "${1#:}"; keys Enter ;;
	Space|Enter|Tab) keys "$1" ;;
	Esc) keys Escape ;;
	Ctrl-?) keys "C-$(printf '%s' "${1#Ctrl-}" | tr 'A-Z' 'a-z')" ;;
	*' '*) for k in $1; do keys -l "$k"; done ;;
	*) keys -l "$1" ;;
	esac
}

# The level: the document's first code block.
awk '/^```/ { n++; next } n == 1' "$doc" > "$work/teach.level"
grep -q '^fieldmarshal level' "$work/teach.level" || fail "no level in docs/teaching.md"
cd "$work" || exit 1
start edit teach.level

# Every row whose keys cell holds code: "R line", then "K span" per key
# span, then "F fragment" per fragment to find.
awk '
/^\| `/ {
	line = $0
	gsub(/\\\|/, "\001", line)
	n = split(line, cell, "|")
	print "R " NR
	k = cell[2]
	while (match(k, /`[^`]+`/)) {
		s = substr(k, RSTART + 1, RLENGTH - 2); gsub(/\001/, "|", s)
		print "K " s
		k = substr(k, RSTART + RLENGTH)
	}
	d = cell[n - 1]
	gsub(/\[`[^`]*`\]/, "", d)
	while (match(d, /`[^`]+`/)) {
		s = substr(d, RSTART + 1, RLENGTH - 2); gsub(/\001/, "|", s)
		print "F " s
		d = substr(d, RSTART + RLENGTH)
	}
}' "$doc" > "$work/lesson.steps"
[ "$(grep -c '^R ' "$work/lesson.steps")" -gt 40 ] || fail "too few rows read from the document"

while IFS= read -r step; do
	case "$step" in
	"R "*) where="docs/teaching.md line ${step#R }" ;;
	"K "*) press "${step#K }"; sleep 0.15 ;;
	"F "*) wait_text "${step#F }" ;;
	esac
done < "$work/lesson.steps"
where=

# a message too long for its line takes the grid's last row, never the
# status line, which stays whole above it
keys q
wait_for 'unsaved changes'
screen | sed -n 22p | grep -q ' QUIT? | .* | fmm done | step ' ||
	fail "the status line is not above the two-line question: $(screen | sed -n 22p)"
screen | sed -n 23,24p | tr '\n' ' ' | grep -q 'unsaved changes: y .*n keeps editing' ||
	fail "the question is not on the last two lines"
keys y
wait_for 'EXIT=0'

# The recording, made after a simulation, replays with the document's
# commands: headless, every hash checked ...
[ -s lesson.replay ] || fail "no lesson.replay"
grep -q '^# the session so far' lesson.replay || fail "the recording did not rebuild the agents"
replays=$(awk '/^```/ { n++; next } n % 2 == 1 && /^fieldmarshal replay/' "$doc" |
	  sed 's/ *#.*//')
[ "$(echo "$replays" | wc -l)" = 2 ] || fail "expected two replay commands in the document"
cmd1=$(echo "$replays" | sed -n 1p | sed "s|^fieldmarshal|$FIELDMARSHAL|")
out=$(eval "$cmd1") || fail "'$cmd1' failed: $out"
echo "$out" | grep -q 'checks passed' || fail "'$cmd1' said: $out"
# ... and in the editor: its setup at once (the agents on screen), then
# '.' runs the next line, the view's included, Space plays to the end
cmd2=$(echo "$replays" | sed -n 2p | sed "s|^fieldmarshal|$FIELDMARSHAL|")
T kill-server >/dev/null 2>&1
nstart=$((nstart + 1))
sock="$work/tmux.$nstart.sock"
T -f /dev/null new-session -d -s ed -x 80 -y 24 "$cmd2; echo EXIT=\$?; sleep 600"
wait_for 'PLAY paused x1 line [0-9]+'
screen | head -n 22 | grep -q '[o2-9][0-9]\.' || fail "no agents (with numbers) after the setup"
keys .
wait_for 'lesson.replay:[0-9]+: view layer costs$'
keys .
wait_for 'lesson.replay:[0-9]+: view split$'
wait_for '^dijkstra8 done$'
wait_for '^fmm done$'
keys .
wait_for 'lesson.replay:[0-9]+: tick  => tick'
keys Space
wait_for 'end of the replay, every check passed' 20
keys q
wait_for 'EXIT=0'
echo ok
