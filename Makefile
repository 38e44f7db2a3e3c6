# SPDX-License-Identifier: GPL-2.0
#
# numa-sched: the 2013 automatic NUMA balancing series as Kconfig options
# on Debian's linux-source-6.1. This Makefile is the table of contents:
# each target is one step, done by a script in scripts/. `make help`.
#
# Everything it builds lives outside the repository, under WORK.

WORK		?= /var/tmp/numa-sched
KSRC		?= $(WORK)/linux
BUILD		?= $(WORK)/build
OUT		?= $(WORK)/out

# Which kernel: fragments of configs/ (without .config) and NAME=y|n options.
# numa-all (every option on, NUMA_MIGRATE_DEFER too) is what the tests build;
# make run boots RUN_CONFIG, numa-default: the options at their Kconfig
# defaults, the kernel that decides what upstream 6.1 decides.
CONFIG		?= numa-all
RUN_CONFIG	?= numa-default
OPTS		?=
empty		:=
space		:= $(empty) $(empty)
NAME		?= $(subst $(space),+,$(strip $(notdir $(CONFIG:.config=)) $(subst =,-,$(OPTS))))
BZIMAGE		 = $(BUILD)/$(NAME)/arch/x86/boot/bzImage
KCONFIG		 = $(BUILD)/$(NAME)/.config

# The emulated machine.
NODES		?= 4
CPUS_PER_NODE	?= 1
MEM_PER_NODE_MB	?= 512
DIST_REMOTE	?= 20
ACCEL		?= tcg
TIMEOUT		?= 900

# The guest: scan tuning for quick convergence, tests in order, demo size.
SCAN_TUNING	?= scan_delay_ms=100 scan_period_min_ms=100 scan_period_max_ms=1000 scan_size_mb=256
TESTS		?= topology.sh balancing.sh proc_sched migrate_to_threads cpupid cpupid_migrate lastnid groups placement swap fbq defer converge
TEST_TIMEOUT	?= 300
# Options built in and turned off at run time, in sched/features:
# "NO_NUMA_SWAP NO_NUMA_FBQ" (make boot; the matrix's KERNEL/LETTERS rows).
SCHED_FEATURES	?=
# Testing the tests: options /proc/config.gz is made to claim in the
# guest, "NUMA_SWAP=y NUMA_FBQ=n" (make boot; every test must then fail).
FAKE_CONFIG	?=
# make matrix: the rows of configs/matrix.tsv, all or the covering set (cover);
# guests booting at once; the upstream reference's tests.
MATRIX_SET	?= all
MATRIX_JOBS	?= 1
MATRIX_FRESH	?= 0
TESTS_UPSTREAM	?= topology.sh balancing.sh proc_sched migrate_to_threads
# make bench: columns (kernels and modes; claims: configs/claims.tsv's),
# the claims, workloads, runs, boots per kernel, seed, seconds, MiB.
BENCH_COLUMNS	?= claims
BENCH_CLAIMS	?=
BENCH		?= default
BENCH_RUNS	?= 12
BENCH_ROUNDS	?=
BENCH_MAX_RUNS	?=
BENCH_RESUME	?=
BENCH_SEED	?=
BENCH_SECS	?= 15
BENCH_MB	?= 64
# make shapes: the NODESxCPUS machines to try.
SHAPES		?= 2x1 2x2 4x1 2x4 4x2 8x1 4x4
DEMO_ARGS	?= 30 32
# make kunit: the QEMU machine kunit.py boots, two NUMA nodes.
KUNIT_QEMU_ARGS	?= -smp 2,sockets=2 -object memory-backend-ram,id=m0,size=512M \
	-numa node,nodeid=0,cpus=0,memdev=m0 -object memory-backend-ram,id=m1,size=512M \
	-numa node,nodeid=1,cpus=1,memdev=m1
# make stress: how long the load runs (s), the fragments added to the row
# CONFIG/OPTS (the debug kernel), the seed of its draws (the guest's own).
STRESS_SECS	?= 600
STRESS_FRAGS	?= debug fault-inject
STRESS_SEED	?=

export WORK KSRC BUILD OUT CONFIG OPTS NAME KCONFIG NODES CPUS_PER_NODE \
	MEM_PER_NODE_MB DIST_REMOTE ACCEL TIMEOUT SCAN_TUNING TESTS \
	TEST_TIMEOUT DEMO_ARGS MATRIX_SET MATRIX_JOBS MATRIX_FRESH \
	TESTS_UPSTREAM BENCH_COLUMNS BENCH_CLAIMS BENCH BENCH_RUNS BENCH_ROUNDS \
	BENCH_SEED BENCH_MAX_RUNS BENCH_RESUME BENCH_SECS BENCH_MB \
	SHAPES STRESS_SECS STRESS_FRAGS STRESS_SEED SCHED_FEATURES FAKE_CONFIG

LOGDIR		 = $(OUT)/logs/$(NAME)-$(1)-$(NODES)x$(CPUS_PER_NODE)

.PHONY: help deps tree export-glue kernel kunit menuconfig savefrag distro-config initramfs boot run matrix bench shapes cost stress stress-selftest check check-selftest series unit test clean distclean

help: ## this list
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  %-12s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo
	@echo "  Variables: CONFIG=\"numa-all no-swap\" OPTS=\"NUMA_FBQ=n\" NODES=4 CPUS_PER_NODE=1"
	@echo "  MEM_PER_NODE_MB=512 DIST_REMOTE=20 ACCEL=tcg|kvm KSRC=$(KSRC) WORK=$(WORK)"

deps: ## install the missing build and boot dependencies (apt-get)
	@sh scripts/deps.sh

tree: ## unpack linux-source-6.1 into KSRC, apply patches/, copy the slices
	@scripts/tree.sh

export-glue: ## export commits made by hand in KSRC into patches/TOPIC and the series
	@scripts/export-glue.sh

kernel: tree ## build bzImage for CONFIG/OPTS into BUILD/NAME
	@scripts/kernel.sh

menuconfig: tree ## choose the features interactively for CONFIG/OPTS's build (keep the choice: savefrag)
	@scripts/kernel.sh --configure-only
	$(MAKE) -C $(KSRC) O=$(BUILD)/$(NAME) menuconfig

distro-config: tree ## merge each feature fragment onto Debian's amd64 config (linux-config-6.1): Kconfig keeps every value
	@scripts/distro-config.sh

savefrag: ## save CONFIG/OPTS's .config (after menuconfig) as configs/FRAG.config, for CONFIG=FRAG
	@FRAG=$(FRAG) scripts/savefrag.sh

initramfs: kernel ## build the guest's initramfs (test and demo)
	@MODE=test scripts/initramfs.sh >/dev/null
	@MODE=demo scripts/initramfs.sh >/dev/null

boot: kernel ## boot NAME's kernel on NODES nodes and run the in-guest TESTS
	@img=$$(MODE=test scripts/initramfs.sh) && \
	MODE=test KERNEL=$(BZIMAGE) INITRD=$$img LOGDIR=$(call LOGDIR,test) scripts/boot.sh

run: CONFIG = $(RUN_CONFIG)
run: deps kernel ## the main job: build the numa-default kernel, boot, run the demo, print the locality report
	@img=$$(MODE=demo scripts/initramfs.sh) && \
	MODE=demo KERNEL=$(BZIMAGE) INITRD=$$img LOGDIR=$(call LOGDIR,demo) scripts/boot.sh

matrix: tree ## the rows of configs/matrix.tsv (every valid option combination, shapes, references): build, boot, test, one table
	@scripts/matrix.sh

# make bench's machine: 2 nodes of 2 CPUs, unless NODES or CPUS_PER_NODE
# is given; with one CPU a node no task ever needs to trade places.
ifeq ($(origin NODES)$(origin CPUS_PER_NODE),filefile)
bench: NODES = 2
bench: CPUS_PER_NODE = 2
endif
bench: tree ## a verdict per seed claim (configs/claims.tsv), runs interleaved and seeded, mechanism counters, tables, plots
	@scripts/bench.sh

shapes: tree ## which NODESxCPUS (SHAPES) this host emulates well: wall time, a task's share, convergence, starved-guest complaints
	@scripts/shapes.sh

cost: tree ## what each option costs: size, bloat-o-meter, task_struct and rq bytes, page-flag bits (guest and Debian configs)
	@scripts/cost.sh

stress: tree ## CONFIG/OPTS + STRESS_FRAGS (debug, fault injection) under storms, hotplug, pressure, bad writes, fuzzing, failed allocations for STRESS_SECS
	@scripts/stress.sh

stress-selftest: ## prove make stress fails on planted bugs (leaks, a page left isolated, a BUG on a bad argument), in a scratch WORK (slow)
	@scripts/stress-selftest.sh

check: kernel ## static gate: our coccinelle rules, coccicheck, sparse, checkpatch, build economy
	@scripts/check.sh

check-selftest: ## prove make check fails on planted bugs, in a scratch WORK (slow)
	@scripts/check-selftest.sh

series: kernel ## export the series with a cover letter into WORK/series; check every commit builds and the same vmlinux
	@SERIES_DIR=$(WORK)/series scripts/series.sh
	@scripts/bisect.sh
	@SERIES_DIR=$(WORK)/series scripts/reproducible.sh

kunit: tree ## the KUnit suites alone, as kunit.py runs them: kernel/sched/.kunitconfig, x86_64, 2 nodes (JSON in OUT/kunit.json)
	@mkdir -p $(OUT) $(BUILD)
	cd $(KSRC) && python3 tools/testing/kunit/kunit.py run --kunitconfig=kernel/sched \
		--arch=x86_64 --build_dir=$(BUILD)/kunit --make_options CC="ccache gcc" \
		--jobs=$$(nproc) --qemu_args="$(KUNIT_QEMU_ARGS)" --json=$(OUT)/kunit.json

unit: tree ## host-side unit tests of the scripts (tests/*.sh)
	@scripts/unit.sh

test: deps ## unit tests, the default kernel, the matrix's covering rows, 3 min stress, make check
	@scripts/test.sh

clean: ## remove the guest images and logs (OUT)
	rm -rf $(OUT)

distclean: clean ## also remove the builds and the kernel tree
	rm -rf $(BUILD) $(KSRC) $(KSRC).lock
