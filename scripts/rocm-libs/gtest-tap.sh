#!/bin/sh
# Guest side of scripts/test-rocm-libs: run one GoogleTest program and
# print its test cases as TAP, one line each, so that the boot harness
# counts them (scripts/lib/hsagpu_harness.py). A test that started and
# never ended is "not ok", with why (timed out, the signal that killed the
# program, its exit status); the tests after it never ran and are not
# reported (the host counts them).
#
#   gtest-tap.sh [-t SECONDS] PROGRAM [GTEST ARGS]
#
# -t: stop the program after SECONDS (before the harness's own timeout,
# so that the lines it did print are still counted).
secs=0
if [ "$1" = -t ]; then
	secs=$2
	shift 2
fi
prog=$1
shift
run() {
	if [ "$secs" -gt 0 ]; then
		timeout "$secs" "$@"
	else
		"$@"
	fi
}
{
	run "$prog" --gtest_color=no "$@"
	echo "gtest-tap: exit status $?"
} 2>&1 | awk -v secs="$secs" '
function flush_running(why) {
	if (running != "") {
		n++
		printf "not ok %d %s # %s\n", n, running, why
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
# the name, without the ", where TypeParam = ..." of typed tests
function name(s) { sub(/,$/, "", s); return s }
/^\[       OK \] / { n++; printf "ok %d %s\n", n, name($4); running = ""; next }
/^\[  SKIPPED \] / && running != "" { n++; printf "ok %d %s # SKIP\n", n, name($4); running = ""; next }
/^\[  FAILED  \] / && running != "" { n++; printf "not ok %d %s\n", n, name($4); running = ""; next }
{ print "# " $0 }
END { flush_running("did not end"); printf "1..%d\n", n }
'
