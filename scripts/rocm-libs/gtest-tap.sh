#!/bin/sh
# Guest side of scripts/test-rocm-libs: run one GoogleTest program and
# print its test cases as TAP, one line each, so that the boot harness
# counts them (scripts/lib/hsagpu_harness.py). A test that started and
# never ended (the program crashed or timed out) is "not ok"; the tests
# after it never ran and are not reported (the host counts them).
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
run "$prog" --gtest_color=no "$@" 2>&1 | awk '
function flush_running(why) {
	if (running != "") {
		n++
		printf "not ok %d %s # %s\n", n, running, why
		running = ""
	}
}
/^\[ RUN      \] / { flush_running("did not end"); running = $4; print "# " $0; next }
/^\[       OK \] / { n++; printf "ok %d %s\n", n, $4; running = ""; next }
/^\[  SKIPPED \] / && running != "" { n++; printf "ok %d %s # SKIP\n", n, $4; running = ""; next }
/^\[  FAILED  \] / && running != "" { n++; printf "not ok %d %s\n", n, $4; running = ""; next }
{ print "# " $0 }
END { flush_running("did not end: crashed or timed out"); printf "1..%d\n", n }
'
