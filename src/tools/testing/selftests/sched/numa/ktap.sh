# SPDX-License-Identifier: GPL-2.0
# KTAP output for the shell tests of this directory, the same lines
# kselftest.h prints for the C ones. Sourced by the tests (and by
# numa-sched's host-side checks).

ktap_num=0
ktap_fails=0

ktap_header()
{
	echo "TAP version 13"
}

ktap_plan()
{
	echo "1..$1"
}

ktap_print_msg()
{
	echo "# $*"
}

# ktap_result STATUS MESSAGE: STATUS 0 passes, anything else fails.
ktap_result()
{
	ktap_num=$((ktap_num + 1))
	if [ "$1" = 0 ]; then
		echo "ok $ktap_num $2"
	else
		echo "not ok $ktap_num $2"
		ktap_fails=$((ktap_fails + 1))
	fi
}

ktap_skip()
{
	ktap_num=$((ktap_num + 1))
	echo "ok $ktap_num $1 # SKIP $2"
}

# Exit as kselftest does: 0 when all passed, 1 otherwise.
ktap_finished()
{
	echo "# Totals: pass:$((ktap_num - ktap_fails)) fail:$ktap_fails"
	[ "$ktap_fails" = 0 ]
	exit $?
}

# Exit 1, as ksft_exit_fail_msg() does, when the test cannot go on.
ktap_exit_fail()
{
	echo "Bail out! $*"
	exit 1
}

# Exit 4 (KSFT_SKIP) with the whole test skipped.
ktap_exit_skip()
{
	echo "1..0 # SKIP $*"
	exit 4
}

# ktap_nest NAME FILE: a test's own (K)TAP output, indented as a subtest
# of the document being printed, with the "# Subtest:" line the kernel's
# KTAP parser expects after its version line (kselftest.h prints none).
ktap_nest()
{
	awk -v name="$1" '{ print "    " $0 }
		/^K?TAP version/ && !done { print "    # Subtest: " name; done = 1 }' "$2"
}
