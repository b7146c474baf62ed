# SPDX-License-Identifier: MIT
# Tacet: the developer entry points. Run from the repository root.
#
#   make deps    install what is missing, and only that: the Debian packages of every tool
#                that fails its check (tools/deps.sh: each compiler compiles and links a
#                program, the emulators and the browser start; apt-get, as root), and the
#                Python virtual environment .venv, made from Debian's python3, holding the
#                tacet tool (tools/)
#   make doctor  each tool, its version and whether it works (and why not), then .venv and
#                the tacet package in it; fails if one does not work
#   make demo    run the demonstration: tacet run --target T --trace ... $(DEMO_APP), T in
#                $(DEMO_TARGETS), then its trace as build/demo/T/report-run<N>.html (one per
#                kernel run: the demo's two cases) and trace.json; then tacet run --target T A
#                for each A in $(DEMO_MORE_APPS)
#   make test    kernel tests (ctest) in every build of TEST_BUILDS (sanitizers and short
#                seeded runs of the fuzz harnesses included), kernel/ coverage (with random
#                scenarios against the model), the static analysis (make lint), the proof (make
#                prove PROVE_FLAGS=--skip-listed, when frama-c is installed), then the Python
#                checks (ruff, pytest, the model-based tests) and make docs; fails if anything fails
#   make docs    the documentation site (docs/, MkDocs with the API reference generated from
#                include/tacet/*.h) into build/docs/site; fails on a broken link between pages,
#                a page missing from the navigation or a public function without a comment
#   make lint    cppcheck on kernel/, ports/ and compat/ in every kernel configuration, and the
#                Cortex-M port's kernel libraries and the CMSIS-RTOS2 layer built by clang (its
#                warnings; GCC's are in the builds)
#   make misra   MISRA C:2012 findings on kernel/ held to its compliance record (docs/misra.md)
#   make prove   the scheduler's ACSL contracts proved by Frama-C's WP for every priority count
#                (tacet prove, docs/proof.md); fails on an unproved goal not listed there with
#                its reason, and on a listed goal that proves (PROVE_FLAGS=--skip-listed: the
#                listed goals' properties left out, as make test does; not that check)
#   make conformance  the kernel against the reference model (tools/tacet/conformance/model.py):
#                CONFORMANCE_SIM random scenarios on the sim port, CONFORMANCE_QEMU on qemu-m3
#   make energy  the energy experiments of docs/energy.md: Pillai and Isha's context-switch cost
#                (bench/ctx_energy on qemu-m3 and the sim port, and its split by function),
#                then Ahn et al.'s power policies (bench/dpm, sim port); their tables
#   make soak    tests/soak.c: the random load of test_random for SOAK_SIM service calls on the
#                sim port and SOAK_QEMU on qemu-m3, seed SOAK_SEED (new each run unless given)
#   make fuzz    every libFuzzer harness of fuzz/ for FUZZ_TIME seconds (docs/fuzzing.md); new
#                inputs are merged into fuzz/corpus/, and git lists what to commit
#   make clean   remove build/
#
# Every goal is idempotent: a second `make deps` installs nothing.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := test
MAKEFLAGS += --no-print-directory

# The distribution's Python (Debian's python3 package), whatever else is first on PATH: the
# pins of tools/constraints.txt resolve on it (tools/tests/test_packaging.py).
PYTHON := /usr/bin/python3
VENV := .venv
VENV_STAMP := $(VENV)/.tacet-installed

# Carbone's experiment on the sim port (virtual cycles) and on a Cortex-M3 (QEMU instructions).
DEMO_TARGETS ?= sim qemu-m3
DEMO_APP ?= examples/producer_consumer
# Run after it on the same targets, untraced: Carbone's mutex experiment, and an application
# built from its system description (examples/periodic_control/app.yaml, tacet config).
DEMO_MORE_APPS ?= examples/priority_inversion examples/periodic_control

# Builds whose kernel tests `make test` runs, in this order: build/<name>, configured with
# TEST_FLAGS_<name>: the configure preset of the same name in CMakePresets.json (which says
# what each is, and is what `cmake --preset <name>` uses). A port adds its own: a preset and
# its name here, or a name added after the list with options of its own, e.g.
#   TEST_BUILDS += my-board
#   TEST_FLAGS_my-board := -DTACET_PORT=cortex-m -DTACET_CPU=cortex-m4f -DTACET_CM_BOARD=my-board \
#                          -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/arm-none-eabi.cmake
# sim-asan: the sim tests under AddressSanitizer and UndefinedBehaviorSanitizer, random
# scenarios through the interpreter in the same build; sim-aarch64: the sim port's AArch64
# context switch under qemu-user; sim-clang: the kernel and the port build without warnings on
# both compilers (make lint builds the Cortex-M port with clang); fuzz: the libFuzzer harnesses
# under ASan + UBSan, ctest runs each for a short seeded budget (TACET_FUZZ_RUNS inputs after
# its corpus), `make fuzz` runs them long. qemu-rv32, qemu-rv32f: the RISC-V port (ports/riscv)
# under QEMU virt, without and with the FPU; qemu-fe310: the same port on the SiFive FE310
# (QEMU sifive_e, 16 KB of RAM), the tests that fit (ports/riscv/README.md, "The FE310 board").
TEST_BUILDS := sim coverage sim-asan sim-aarch64 qemu-m3 qemu-m4 qemu-rv32 qemu-rv32f qemu-fe310 \
               sim-clang fuzz
$(foreach build,$(TEST_BUILDS),$(eval TEST_FLAGS_$(build) := --preset $(build)))
# Builds (of TEST_BUILDS) whose kernel/ line and branch coverage is printed after their tests.
# The coverage counts the model-based test too: random scenarios through the interpreter.
COVERAGE_BUILDS := coverage
# Builds (of TEST_BUILDS) that also run random scenarios against the model, with these options.
CONFORMANCE_ARGS_coverage := --count 20000 --seed 2
CONFORMANCE_ARGS_sim-asan := --count 5000 --seed 3
CTEST_JOBS ?= 2
# The tests build kernel/ in several configurations; a function may sit on different lines
# in each (checks compiled out), so merge those instead of failing.
GCOVR = $(VENV)/bin/gcovr --root . --filter kernel/ --merge-mode-functions=merge-use-line-min \
        --txt-summary

# The machine's tools, each checked by what the builds ask of it, and their Debian packages.
DEPS := PYTHON=$(PYTHON) VENV=$(VENV) tools/deps.sh

.PHONY: deps doctor demo test clean system-deps test-python conformance soak lint misra prove fuzz energy docs

deps: system-deps $(VENV_STAMP)

# A second or two when nothing is missing: every check runs, all at once. The goals that run
# others (test, lint) check once and tell their sub-makes so (DEPS_CHECKED=1).
system-deps:
	@$(if $(DEPS_CHECKED),:,$(DEPS) install)

doctor:
	@$(DEPS) doctor

# A venv that does not run (its Python upgraded or removed) or that was made from another
# interpreter than $(PYTHON) (its pyvenv.cfg says which) is made again.
ifeq ($(DEPS_CHECKED),)
ifneq ($(shell $(DEPS) venv-current && echo yes),yes)
.PHONY: $(VENV_STAMP)
endif
endif

# Reinstalled only when tools/pyproject.toml, the pinned versions of indirect dependencies
# (tools/constraints.txt) or the version (VERSION, the package's) change.
$(VENV_STAMP): tools/pyproject.toml tools/constraints.txt VERSION | system-deps
	@if ! $(DEPS) venv-current; then \
	  if [[ -e $(VENV) ]]; then echo "make deps: $(VENV) does not run or is not $(PYTHON)'s"; fi; \
	  echo "make deps: making $(VENV) from $(PYTHON)"; \
	  rm -rf $(VENV); \
	  $(PYTHON) -m venv $(VENV); \
	fi
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
	  -c tools/constraints.txt -e './tools[dev,cluster]'
	@touch $@

# Each run, then the same run traced (TC_TRACE=1 in build/<target>-trace): a dump per kernel
# run of the program (the demo's two cases) in run.tctrace, their Perfetto JSON (a process per
# run) and an HTML report per run (report-run1.html ...; report.html for a program of one run)
# land in build/demo/<target>/. tacet trace prints each run's events kept, recorded and lost.
demo: deps
	@for target in $(DEMO_TARGETS); do \
	  out=build/demo/$$target; mkdir -p $$out; \
	  echo "== tacet run --target $$target $(DEMO_APP)"; \
	  $(VENV)/bin/tacet run --target $$target $(DEMO_APP); \
	  echo "== the same traced (its figures include the trace's cost): $$out/"; \
	  rm -f $$out/report*.html; \
	  $(VENV)/bin/tacet run --target $$target --trace $$out/run.tctrace $(DEMO_APP) >/dev/null; \
	  $(VENV)/bin/tacet trace $$out/run.tctrace --perfetto $$out/trace.json --html $$out/report.html; \
	  echo; \
	done; \
	for app in $(DEMO_MORE_APPS); do \
	  for target in $(DEMO_TARGETS); do \
	    echo "== tacet run --target $$target $$app"; \
	    $(VENV)/bin/tacet run --target $$target $$app; \
	    echo; \
	  done; \
	done; \
	echo "Open in a browser:" $$(for t in $(DEMO_TARGETS); do ls build/demo/$$t/report*.html; done); \
	echo "or load build/demo/<target>/trace.json at https://ui.perfetto.dev (Open trace file):" \
	  "$(DEMO_TARGETS:%=build/demo/%/)"

# Every step runs even if an earlier one failed; the goal fails if any did.
test: deps
	@failed=""; \
	for build in $(TEST_BUILDS); do \
	  $(MAKE) DEPS_CHECKED=1 test-build-$$build || failed+=" build/$$build"; \
	done; \
	$(MAKE) DEPS_CHECKED=1 lint || failed+=" lint"; \
	if command -v frama-c >/dev/null; then $(MAKE) DEPS_CHECKED=1 PROVE_FLAGS=--skip-listed prove || failed+=" prove"; fi; \
	$(MAKE) DEPS_CHECKED=1 test-python || failed+=" tools"; \
	$(MAKE) DEPS_CHECKED=1 docs || failed+=" docs"; \
	if [[ -n "$$failed" ]]; then echo "make test: FAILED:$$failed" >&2; exit 1; fi; \
	echo "make test: all passed"

# One build of TEST_BUILDS: configure, build, run its tests. A coverage build starts from
# zeroed counters and prints its coverage even when a test failed (the goal still fails).
test-build-%: deps
	$(if $(filter $*,$(TEST_BUILDS)),,$(error $*: not in TEST_BUILDS ($(TEST_BUILDS))))
	cmake -S . -B build/$* -G Ninja $(TEST_FLAGS_$*)
	cmake --build build/$*
	$(if $(filter $*,$(COVERAGE_BUILDS)),find build/$* -name '*.gcda' -delete)
	status=0; \
	ctest --test-dir build/$* --output-on-failure --no-tests=error -j$(CTEST_JOBS) || status=$$?; \
	$(if $(CONFORMANCE_ARGS_$*),$(VENV)/bin/tacet conformance --target sim $(CONFORMANCE_ARGS_$*) \
	  --build-dir build/$* || status=$$?;) \
	$(if $(filter $*,$(COVERAGE_BUILDS)),$(GCOVR) build/$* || status=$$?;) \
	exit $$status

# Static analysis. tacet lint: cppcheck in every kernel configuration the builds use, no
# finding without an inline suppression and its reason beside it. tacet misra: every MISRA
# finding covered by the compliance record. Then clang's warnings on the
# Cortex-M port: the kernel libraries (target tacet_kernels: every test and benchmark
# configuration on the M3, the default on the M4F) and the CMSIS-RTOS2 layer on the default
# kernel (tacet_cmsis_os2) built by clang, compile only.
LINT_BUILDS := clang-cortex-m3 clang-cortex-m4f
LINT_FLAGS_clang-cortex-m3 := -DTACET_PORT=cortex-m -DTACET_CPU=cortex-m3 \
                              -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/arm-none-eabi-clang.cmake
LINT_FLAGS_clang-cortex-m4f := -DTACET_PORT=cortex-m -DTACET_CPU=cortex-m4f \
                               -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/arm-none-eabi-clang.cmake \
                               -DTACET_BUILD_TESTS=OFF -DTACET_BUILD_EXAMPLES=OFF

lint: deps
	@status=0; \
	$(VENV)/bin/tacet lint || status=1; \
	$(VENV)/bin/tacet misra || status=1; \
	for build in $(LINT_BUILDS); do $(MAKE) DEPS_CHECKED=1 lint-build-$$build || status=1; done; \
	exit $$status

lint-build-%: deps
	$(if $(filter $*,$(LINT_BUILDS)),,$(error $*: not in LINT_BUILDS ($(LINT_BUILDS))))
	cmake -S . -B build/$* -G Ninja $(LINT_FLAGS_$*)
	cmake --build build/$* --target tacet_kernels tacet_cmsis_os2

# The site in build/docs/site (mkdocs.yml): seconds. --strict turns every warning into a failure.
docs: deps
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --config-file mkdocs.yml

# Minutes: WP once per priority count (docs/proof.md). In make test when frama-c is installed
# (make deps installs it), without the listed goals: each runs the provers to their limit, the
# larger part of a full run's time.
PROVE_FLAGS ?=
prove: deps
	$(VENV)/bin/tacet prove $(PROVE_FLAGS)

# The kernel held to its MISRA compliance record (kernel/misra-record.yaml, docs/misra.md);
# make lint (and so make test) runs it too.
misra: deps
	$(VENV)/bin/tacet misra

test-python: deps
	$(VENV)/bin/ruff check tools
	$(VENV)/bin/ruff format --check tools
	cd tools && $(abspath $(VENV))/bin/lint-imports --no-cache
	$(VENV)/bin/pytest tools/tests

# Millions of scenarios: minutes on two cores. `make test` runs a seeded budget of them.
CONFORMANCE_SIM ?= 1000000
CONFORMANCE_QEMU ?= 100000
CONFORMANCE_SEED ?= 1

conformance: deps
	$(VENV)/bin/tacet conformance --target sim --count $(CONFORMANCE_SIM) --seed $(CONFORMANCE_SEED)
	$(VENV)/bin/tacet conformance --target qemu-m3 --count $(CONFORMANCE_QEMU) --seed $(CONFORMANCE_SEED)

# Seconds. Every program checks itself; the goal fails if one does. The QEMU command line is the
# README's measurement command (-icount shift=5, deterministic).
energy: deps
	cmake -S . -B build/sim -G Ninja $(TEST_FLAGS_sim)
	cmake --build build/sim --target ctx_energy dpm
	cmake -S . -B build/qemu-m3 -G Ninja $(TEST_FLAGS_qemu-m3)
	cmake --build build/qemu-m3 --target ctx_energy
	@status=0; \
	echo "== Pillai and Isha on qemu-m3: build/qemu-m3/bench/ctx_energy"; \
	qemu-system-arm -M mps2-an385 -cpu cortex-m3 -nographic -icount shift=5 \
	  -semihosting-config enable=on,target=native -kernel build/qemu-m3/bench/ctx_energy || status=1; \
	echo; echo "== Pillai and Isha on qemu-m3, by function: bench/ctx_energy/profile.py"; \
	$(VENV)/bin/python bench/ctx_energy/profile.py build/qemu-m3/bench/ctx_energy || status=1; \
	echo; echo "== Pillai and Isha on the sim port: build/sim/bench/ctx_energy"; \
	build/sim/bench/ctx_energy || status=1; \
	echo; echo "== Ahn et al. on the sim port: build/sim/bench/dpm"; \
	build/sim/bench/dpm || status=1; \
	if [[ $$status != 0 ]]; then echo "make energy: FAILED" >&2; exit 1; fi

# Minutes: 10 million calls on the sim port, a million under QEMU. The seed is printed first;
# the same seed on the same build repeats the run exactly (virtual time; QEMU -icount).
SOAK_SIM ?= 10000000
SOAK_QEMU ?= 1000000
SOAK_SEED ?=

soak: deps
	cmake -S . -B build/sim -G Ninja $(TEST_FLAGS_sim)
	cmake --build build/sim --target soak
	cmake -S . -B build/qemu-m3 -G Ninja $(TEST_FLAGS_qemu-m3)
	cmake --build build/qemu-m3 --target soak
	@seed=$(if $(SOAK_SEED),$(SOAK_SEED),$$(( $$(date +%s) % 4294967296 ))); status=0; \
	echo "make soak: seed $$seed (again: make soak SOAK_SEED=$$seed)"; \
	build/sim/tests/soak --seed $$seed --calls $(SOAK_SIM) || status=1; \
	qemu-system-arm -M mps2-an385 -cpu cortex-m3 -nographic -icount shift=5,sleep=off \
	  -semihosting-config enable=on,target=native,arg=soak,arg=--seed,arg=$$seed,arg=--calls,arg=$(SOAK_QEMU) \
	  -kernel build/qemu-m3/tests/soak || status=1; \
	if [[ $$status != 0 ]]; then echo "make soak: FAILED (seed $$seed)" >&2; exit 1; fi; \
	echo "make soak: passed (seed $$seed)"

# Each harness FUZZ_TIME seconds from its corpus, new inputs kept in build/fuzz/long/<harness>/
# and then merged into fuzz/corpus/<harness>/: the fewest that reach code the corpus does not
# (-set_cover_merge over edges, not hit counts), so the corpus stays small. A failing input
# is left in build/fuzz/long/<harness>/; docs/fuzzing.md says what to do with it.
FUZZ_TIME ?= 600
FUZZ_HARNESSES ?= pools queues services

fuzz: deps
	cmake -S . -B build/fuzz -G Ninja $(TEST_FLAGS_fuzz)
	cmake --build build/fuzz
	@failed=""; \
	for h in $(FUZZ_HARNESSES); do \
	  long=build/fuzz/long/$$h; \
	  rm -rf $$long; mkdir -p $$long/new; \
	  echo "== fuzz_$$h: $(FUZZ_TIME) s from fuzz/corpus/$$h (log: $$long/log)"; \
	  if build/fuzz/fuzz/fuzz_$$h -max_total_time=$(FUZZ_TIME) -timeout=10 -print_final_stats=1 \
	       -artifact_prefix=$$long/ $$long/new fuzz/corpus/$$h >$$long/log 2>&1; then \
	    grep -E '^#[0-9]+ +DONE' $$long/log | tail -1; \
	  else \
	    failed+=" $$h"; \
	    grep -E 'check failed|panic|ERROR|SUMMARY' $$long/log | head -5; \
	    ls $$long/crash-* $$long/timeout-* $$long/oom-* 2>/dev/null || true; \
	  fi; \
	  build/fuzz/fuzz/fuzz_$$h -set_cover_merge=1 -use_counters=0 fuzz/corpus/$$h $$long/new \
	    >>$$long/log 2>&1; \
	done; \
	echo "== new corpus inputs to commit:"; \
	git status --short --untracked-files=all fuzz/corpus; \
	if [[ -n "$$failed" ]]; then echo "make fuzz: FAILED:$$failed (see docs/fuzzing.md)" >&2; exit 1; fi

clean:
	rm -rf build
