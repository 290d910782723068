#!/bin/sh
# Guest side of scripts/test-rocm-libs: run one GoogleTest program and
# print its test cases as TAP, one line each, so that the boot harness
# counts them (scripts/lib/hsagpu_harness.py). A test that started and
# never ended is "not ok", with why (timed out, the signal that killed the
# program, its exit status).
#
#   gtest-tap.sh [-t SECONDS] [-T SECONDS] [-l LIST] PROGRAM [GTEST ARGS]
#
# -t: stop the program when one test (or its start-up before the first)
#     has run for SECONDS: that test is "not ok, timed out". Per test, not
#     per run: a run of thousands of quick tests is not cut in the middle
#     of one of them.
# -l: run the tests named in LIST (one per line). After a test that did
#     not end, the program starts again on the tests not yet run, so one
#     slow or crashing test costs only itself; the tests never started are
#     not reported (the host counts them). A long list goes in runs of up
#     to 64 KiB of names (the --gtest_filter argument's limit).
# -T: stop after SECONDS in all: the test then running is not reported
#     (not reached, like those after it), and no new run starts.
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

# Run the program; a watchdog stops it when $secs pass with no test
# starting or ending (the awk below touches $state.tick at each) or when
# the -T budget is spent, and leaves why in $state.why.
run() {
	: > "$state.tick"
	rm -f "$state.why"
	"$@" &
	pid=$!
	(
		while kill -0 "$pid" 2>/dev/null; do
			sleep 1
			now=$(date +%s)
			last=$(stat -c %Y "$state.tick" 2>/dev/null || echo "$now")
			why=
			if [ "$secs" -gt 0 ] && [ $((now - last)) -ge "$secs" ]; then
				why=timeout
			elif [ "$total" -gt 0 ] && [ $((now - start)) -ge "$total" ]; then
				why=budget
			fi
			if [ -n "$why" ]; then
				echo "$why" > "$state.why"
				kill -TERM "$pid" 2>/dev/null
				sleep 5
				kill -KILL "$pid" 2>/dev/null
				break
			fi
		done
	) > /dev/null 2>&1 &
	dog=$!
	wait "$pid"
	st=$?
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	return "$st"
}

# one run: TAP numbered from $n; the names of the tests it reported go
# to $state.done, the last number to $state.n
tap_run() {
	{
		run "$prog" --gtest_color=no "$@"
		echo "gtest-tap: exit status $? $(cat "$state.why" 2>/dev/null)"
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
# a test starts or ends: the watchdog counts from here
function tick() { printf "" > (state ".tick"); close(state ".tick") }
/^\[ RUN      \] / {
	flush_running("did not end"); running = name($4); tick(); print "# " $0; next
}
/^gtest-tap: exit status / {
	st = $4
	if ($5 == "budget")
		running = ""	# not reached: the host counts it
	if ($5 == "timeout")
		flush_running("did not end: timed out after " secs " s")
	else if (st > 128)
		flush_running("did not end: crashed, signal " (st - 128))
	else
		flush_running("did not end: the program exited with status " st)
	print "# " $0
	next
}
/^\[       OK \] / { n++; printf "ok %d %s\n", n, name($4); done(name($4)); running = ""; tick(); next }
/^\[  SKIPPED \] / && running != "" {
	n++; printf "ok %d %s # SKIP\n", n, name($4); done(name($4)); running = ""; tick(); next
}
/^\[  FAILED  \] / && running != "" {
	n++; printf "not ok %d %s\n", n, name($4); done(name($4)); running = ""; tick(); next
}
{ print "# " $0 }
END { flush_running("did not end"); print n > (state ".n") }
'
	n=$(cat "$state.n")
}

rm -f "$state.done" "$state.n"
# a line no test is named (busybox's grep -f of an empty file matches all)
echo "gtest-tap: none" > "$state.done"
start=$(date +%s)
if [ -z "$list" ]; then
	tap_run "$@"
else
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
rm -f "$state.done" "$state.n" "$state.left" "$state.run" "$state.tick" \
	"$state.why"
