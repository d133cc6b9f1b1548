# lib.sh - drive the real editor in a tmux pane (sourced by tests/tui/*.sh).
#
# Needs FIELDMARSHAL (the program) and srcdir (the source tree), which
# AM_TESTS_ENVIRONMENT exports; skips (exit 77) without tmux.  Each test
# gets its own tmux server socket and scratch folder, removed on exit.

command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipping"; exit 77; }
: "${FIELDMARSHAL:?FIELDMARSHAL must name the program}" "${srcdir:?srcdir must be set}"

# A test that drives a terminal depends on timing (a loaded machine, a
# sanitizer build): a failure is retried once in a fresh server and folder,
# and both runs' output stay in the log.  A test that fails twice fails.
if [ -z "${FF_TUI_ATTEMPT:-}" ]; then
	FF_TUI_ATTEMPT=1 sh "$0" "$@" && exit 0
	rc=$?
	[ $rc = 77 ] && exit 77
	echo "--- attempt 1 failed (exit $rc); retrying once"
	FF_TUI_ATTEMPT=2 exec sh "$0" "$@"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fftui.XXXXXX")
nstart=0
sock="$work/tmux.0.sock"
# ASCII arrows and a fixed terminal type make the screen predictable.
export LC_ALL=C TERM=xterm-256color
unset TMUX NO_COLOR

T() { tmux -S "$sock" "$@"; }
cleanup() {
	for s in "$work"/tmux.*.sock; do
		[ -S "$s" ] && tmux -S "$s" kill-server >/dev/null 2>&1
	done
	rm -rf "$work"
}
trap cleanup EXIT

# start ARGS...: runs the program with ARGS in a 100x30 pane (FF_COLS x
# FF_ROWS when set); the pane
# prints EXIT=<status> when the program ends.  Ends any earlier session.
start() {
	T kill-server >/dev/null 2>&1
	nstart=$((nstart + 1))
	sock="$work/tmux.$nstart.sock"   # a fresh server: no race with the last
	# The pane's shell ignores SIGINT, as an interactive shell's job control
	# would keep it out of the editor's way: a Ctrl-C that reaches the
	# editor's process group must not also end the pane.
	T -f /dev/null new-session -d -s ed -x "${FF_COLS:-100}" -y "${FF_ROWS:-30}" \
		"trap '' INT; $FIELDMARSHAL --db '$work/levels.db' $*; echo EXIT=\$?; sleep 600"
	wait_for '\| EDIT \|'
}

screen() { T capture-pane -p -t ed; }
keys() { T send-keys -t ed "$@"; }
# cmd TEXT: types ':TEXT' and Enter at the prompt.
cmd() { T send-keys -t ed ":" && T send-keys -t ed -l "$1" && T send-keys -t ed Enter; }

fail() {
	echo "FAIL: $*"
	echo "--- screen:"
	screen
	exit 1
}

# wait_for PATTERN [SECONDS]: until the screen contains PATTERN (grep -E);
# wait_text TEXT [SECONDS]: until it contains TEXT as it stands.  A
# failure names $where when it is set.  Ten seconds by default: a loaded
# machine (CI, a sanitizer build) can take seconds over a redraw.
wait_for() { until_screen -E "$1" "${2:-10}"; }
wait_text() { until_screen -F "$1" "${2:-10}"; }
until_screen() {
	i=0
	while [ $i -lt "${3}0" ]; do
		screen | grep -q "$1" -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "${where:+$where: }no '$2' on screen"
}

# wait_gone PATTERN: until the screen no longer contains PATTERN.
wait_gone() {
	i=0
	while [ $i -lt 50 ]; do
		screen | grep -Eq -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "'$1' still on screen"
}

# cell SX SY: the character at screen column SX, row SY (0-based).
cell() { screen | sed -n "$(($2 + 1))p" | cut -c"$(($1 + 1))"; }

# expect_cell SX SY CHAR
expect_cell() {
	got=$(cell "$1" "$2")
	[ "$got" = "$3" ] || fail "screen cell $1,$2 is '$got', expected '$3'"
}

# status: the status line (second to last row).
status() { screen | tail -n 2 | head -n 1; }
