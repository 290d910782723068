#!/bin/sh
# Guest side of scripts/test-rocm-libs: run one GoogleTest program and
# print its test cases as TAP, one line each, so that the boot harness
# counts them (scripts/lib/hsagpu_harness.py). A test that started and
# never ended is "not ok", with why (timed out, the signal that killed the
# program, its exit status).
#
#   gtest-tap.sh [-t SECONDS] [-T SECONDS] [-l LIST] PROGRAM [GTEST ARGS]
#
# -t: stop a run of the program after SECONDS (before the harness's own
#     timeout, so that the lines it did print are still counted).
# -l: run the tests named in LIST (one per line). After a test that did
#     not end, the program starts again on the tests not yet run, so one
#     slow or crashing test costs only itself; the tests never started are
#     not reported (the host counts them). A long list goes in runs of up
#     to 64 KiB of names (the --gtest_filter argument's limit).
# -T: start no new run after SECONDS in all.
secs=0
total=0
list=
while :; do
	case $1 in
	-t) secs=$2; shift 2 ;;
	-T) total=$2; shift 2 ;;
	-l) list=$2; shift 2 ;;
	*) break ;;
	esac
done
prog=$1
shift
state=/tmp/gtest-tap.$$
n=0

run() {
	if [ "$secs" -gt 0 ]; then
		timeout "$secs" "$@"
	else
		"$@"
	fi
}

# one run: TAP numbered from $n; the names of the tests it reported go
# to $state.done, the last number to $state.n
tap_run() {
	{
		run "$prog" --gtest_color=no "$@"
		echo "gtest-tap: exit status $?"
	} 2>&1 | awk -v secs="$secs" -v n="$n" -v state="$state" '
# the name, without the ", where TypeParam = ..." of typed tests
function name(s) { sub(/,$/, "", s); return s }
function done(s) { print s >> (state ".done") }
function flush_running(why) {
	if (running != "") {
		n++
		printf "not ok %d %s # %s\n", n, running, why
		done(running)
		running = ""
	}
}
/^\[ RUN      \] / { flush_running("did not end"); running = name($4); print "# " $0; next }
/^gtest-tap: exit status / {
	st = $4
	if (st == 124 || st == 143)
		flush_running("did not end: timed out after " secs " s")
	else if (st > 128)
		flush_running("did not end: crashed, signal " (st - 128))
	else
		flush_running("did not end: the program exited with status " st)
	print "# " $0
	next
}
/^\[       OK \] / { n++; printf "ok %d %s\n", n, name($4); done(name($4)); running = ""; next }
/^\[  SKIPPED \] / && running != "" {
	n++; printf "ok %d %s # SKIP\n", n, name($4); done(name($4)); running = ""; next
}
/^\[  FAILED  \] / && running != "" {
	n++; printf "not ok %d %s\n", n, name($4); done(name($4)); running = ""; next
}
{ print "# " $0 }
END { flush_running("did not end"); print n > (state ".n") }
'
	n=$(cat "$state.n")
}

rm -f "$state.done" "$state.n"
# a line no test is named (busybox's grep -f of an empty file matches all)
echo "gtest-tap: none" > "$state.done"
if [ -z "$list" ]; then
	tap_run "$@"
else
	start=$(date +%s)
	while :; do
		grep -v -x -F -f "$state.done" "$list" > "$state.left" || true
		[ -s "$state.left" ] || break
		before=$n
		# at most 64 KiB of names a run: one argument holds 128 KiB
		awk '{ t += length($0) + 1; if (NR > 1 && t > 65536) exit; print }' \
			"$state.left" > "$state.run"
		tap_run "$@" "--gtest_filter=$(tr '\n' ':' < "$state.run")"
		# no test reported: the program fails before its first test
		[ "$n" -gt "$before" ] || break
		if [ "$total" -gt 0 ] && [ $(($(date +%s) - start)) -ge "$total" ]; then
			echo "# gtest-tap: $total s spent, no further run"
			break
		fi
	done
fi
echo "1..$n"
rm -f "$state.done" "$state.n" "$state.left" "$state.run"
