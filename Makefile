# animkit: `make demo` and `make test` do all the set-up on a fresh Debian 12 machine.
SHELL := /bin/bash
BUILD ?= build
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 300
# Fuzz targets to run (e.g. "metroid_anim psx_tmd"); empty: all.
FUZZ_TARGETS ?=
# Stop a target after this many executions (empty: time only).
FUZZ_RUNS ?=
FUZZ_PARALLEL ?= 1
CMAKE_FLAGS ?=
NODE_MODULES := $(abspath $(BUILD)/node/node_modules)
# The ASan+UBSan build (clang-14): the suite runs under it and the fuzz targets link it.
SANITIZE_BUILD := $(BUILD)/asan
# LLVM's linker for it: the suite, the CLI and every fuzz target link the whole library
# with sanitizer and coverage code, and lld links each in a quarter of ld's time.
LLD_FLAGS := $(foreach kind,EXE SHARED MODULE,-DCMAKE_$(kind)_LINKER_FLAGS=-fuse-ld=lld)
# Seconds each fuzz target runs in `make fuzz-smoke` (CI): its corpus, then mutations.
FUZZ_SMOKE_SECONDS ?= 3
# Ninja for a new build folder when it is installed (make deps installs it): it compiles a
# target's files while the targets it links are still building. A folder keeps its generator.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja),-G Ninja))
CLI := $(BUILD)/release/tools/animkit/animkit
WINDOWS_BUILD := $(BUILD)/windows
WINDOWS_DEPS := $(BUILD)/windows-deps
# Configures build/release; the targets add what they build (tests, Python).
CONFIGURE_RELEASE = cmake -S . -B $(BUILD)/release $(call generator,$(BUILD)/release) -DCMAKE_BUILD_TYPE=Release

.PHONY: samples all deps deps-build node-deps build demo test test-release build-sanitize test-sanitize fuzz fuzz-build fuzz-smoke fuzz-corpus bench install clean
.PHONY: python
.PHONY: windows deps-windows windows-or-skip
.PHONY: blender-addon blender-formats test-blender-4 test-blender-5
.PHONY: dist

all: build

# Everything `make test` needs (Blender, Chromium, clang, Python, the Debian 13 and unstable roots).
deps:
	@bash tools/setup/install-deps.sh

# Only what the library and the CLI build with: all `make demo` installs.
deps-build:
	@bash tools/setup/install-deps.sh --build

# The glTF validator the tests run (from the npm registry; skipped with a message without npm).
node-deps:
	@bash tools/setup/install-node-deps.sh "$(BUILD)/node"

# The release build's tests are the front ends and the shipped build's measures; the
# GoogleTest suite compiles and runs in the sanitizer build (tests/CMakeLists.txt). For the
# whole suite here too: CMAKE_FLAGS=-DANIMKIT_LIBRARY_TESTS=ON.
build: deps
	$(CONFIGURE_RELEASE) -DANIMKIT_BUILD_TESTS=ON -DANIMKIT_LIBRARY_TESTS=OFF -DANIMKIT_BUILD_PYTHON=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD)/release -j $(JOBS)

# The demo installs and builds only what it runs: the library and the CLI.
demo: deps-build
	$(CONFIGURE_RELEASE) -DANIMKIT_BUILD_TESTS=OFF -DANIMKIT_BUILD_PYTHON=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)/release -j $(JOBS) --target animkit_cli
	@bash tools/demo.sh "$(CLI)" samples "$(BUILD)/demo"

test: test-release test-sanitize

test-release: build node-deps windows-or-skip
	cd $(BUILD)/release && ANIMKIT_NODE_MODULES="$(NODE_MODULES)" ctest --output-on-failure -j $(JOBS)

# The ASan+UBSan build (clang-14, -O1 -g1: CMakeLists.txt) and its run of the whole suite.
# Its library also carries libFuzzer's coverage, so the fuzz targets link it: one
# instrumented build for both (docs/development.md).
build-sanitize: deps
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(SANITIZE_BUILD) $(call generator,$(SANITIZE_BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DANIMKIT_SANITIZE=ON -DANIMKIT_BUILD_FUZZ=ON -DANIMKIT_INSTALL_TEST=OFF $(LLD_FLAGS) $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)

test-sanitize: build-sanitize node-deps
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ANIMKIT_NODE_MODULES="$(NODE_MODULES)" ctest --output-on-failure -j $(JOBS)

# The add-on's tests under Debian 13's Blender 4 (ctest's Blender4.*) and Debian unstable's
# Blender 5 (Blender5.*), in the roots tools/setup/install-blender-root.sh makes as root
# (make deps does too); docs/blender.md.
test-blender-4: build
	@bash tools/setup/install-blender-root.sh trixie
	cd $(BUILD)/release && ctest -R '^Blender4[.]' --output-on-failure

test-blender-5: build
	@bash tools/setup/install-blender-root.sh sid
	cd $(BUILD)/release && ctest -R '^Blender5[.]' --output-on-failure

# libFuzzer targets (clang-14, ASan + UBSan), built by build-sanitize. `make fuzz` runs each
# for FUZZ_SECONDS (default 300), seeded with fuzz/corpus/<target>/, the samples and, when present, the
# real files under ../shared/fixtures; `make fuzz-smoke` (CI) runs each for FUZZ_SMOKE_SECONDS (3) on the
# committed corpus alone, JOBS targets at a time. See docs/reliability.md, "Fuzzing".
fuzz-build: build-sanitize

fuzz: fuzz-build
	@FUZZ_FIXTURES=1 FUZZ_TARGETS="$(FUZZ_TARGETS)" FUZZ_RUNS="$(FUZZ_RUNS)" FUZZ_PARALLEL="$(FUZZ_PARALLEL)" bash tools/run-fuzzers.sh "$(SANITIZE_BUILD)/fuzz" "$(FUZZ_SECONDS)"

fuzz-smoke: fuzz-build
	@FUZZ_FIXTURES=0 FUZZ_TARGETS="$(FUZZ_TARGETS)" FUZZ_PARALLEL="$(JOBS)" bash tools/run-fuzzers.sh "$(SANITIZE_BUILD)/fuzz" $(FUZZ_SMOKE_SECONDS)

# Rewrites fuzz/corpus/ with the project's own encoders.
fuzz-corpus: build
	cmake --build $(BUILD)/release -j $(JOBS) --target animkit_make_fuzz_corpus
	rm -rf fuzz/corpus
	$(BUILD)/release/tools/animkit/animkit_make_fuzz_corpus fuzz/corpus

# animkit.exe for 64-bit Windows, cross-compiled with Debian's MinGW-w64 (docs/windows.md):
# $(WINDOWS_BUILD)/tools/animkit/animkit.exe, one file, no DLLs. Its libraries come from
# Debian's source packages (tools/windows/build-deps.sh, pinned in tools/windows/deps.lock).
windows: deps-windows
	bash tools/windows/build-deps.sh $(WINDOWS_DEPS)
	cmake -S . -B $(WINDOWS_BUILD) $(call generator,$(WINDOWS_BUILD)) -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_TOOLCHAIN_FILE=$(abspath cmake/mingw-w64-x86_64.cmake) -DANIMKIT_WINDOWS_DEPS=$(abspath $(WINDOWS_DEPS)) \
	  -DANIMKIT_BUILD_TESTS=OFF -DANIMKIT_BUILD_PYTHON=OFF $(CMAKE_FLAGS)
	cmake --build $(WINDOWS_BUILD) -j $(JOBS) --target animkit_cli

# The MinGW-w64 toolchain, Wine and the deb-src index the Windows build and its tests need.
deps-windows:
	@bash tools/setup/install-deps.sh --windows

# What `make test` builds for its Windows tests (Wine.*, the Windows extension and package):
# `make windows`, or, where the toolchain cannot be installed, a message (those tests skip).
windows-or-skip:
	@if bash tools/setup/install-deps.sh --windows && command -v x86_64-w64-mingw32-g++-posix >/dev/null; then \
	  $(MAKE) --no-print-directory windows; \
	else echo "windows: no MinGW-w64 toolchain could be installed: the Windows build is skipped, and its tests skip"; fi

bench: deps
	cmake -S . -B $(BUILD)/bench $(call generator,$(BUILD)/bench) -DCMAKE_BUILD_TYPE=Release -DANIMKIT_BUILD_BENCH=ON -DANIMKIT_BUILD_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)/bench -j $(JOBS)
	$(BUILD)/bench/bench/animkit_bench --benchmark_min_time=0.2

# The Python module alone, in the release build: import it with
# PYTHONPATH=$(BUILD)/release/python /usr/bin/python3 (docs/python.md). `make build` builds
# it too, and `make install` installs it into Python's package folder.
python: deps
	$(CONFIGURE_RELEASE) $(CMAKE_FLAGS)
	cmake --build $(BUILD)/release -j $(JOBS) --target animkit_python

install: build
	cmake --install $(BUILD)/release --prefix "$(or $(PREFIX),/usr/local)"

# The Blender add-on (blender/animkit_io) as Blender installs it (docs/blender.md):
# $(BUILD)/animkit_io.zip, animkit_io/ at the top, for Blender 3.4 to 4.1 (Preferences >
# Add-ons > Install...), and $(BUILD)/animkit_io-VERSION.zip, the extension Blender's
# `blender --command extension build` makes, for 4.2 and later (Get Extensions > Install
# from Disk). The extension needs a Blender >= 4.2 (on PATH, or the root
# tools/run-blender.sh runs; ANIMKIT_BLENDER_ROOT=trixie|sid picks it): without one only the
# legacy zip is built, with a message.
# The legacy zip and one extension per platform, each with its animkit (docs/blender.md):
# the Linux one from `make build`, the Windows one from `make windows` (left out when absent).
blender-addon:
	python3 tools/blender-addon.py $(BUILD) --linux-cli $(CLI) --windows-cli $(WINDOWS_BUILD)/tools/animkit/animkit.exe

# The release (docs/install.md): $(BUILD)/dist/animkit-VERSION-windows-x64.zip and
# animkit-VERSION-linux-x64.tar.gz (the CLI, README.md, LICENSE and licences/, the texts of
# the libraries inside it: tools/dist/licences.py) and the Blender extensions. Without a
# Windows CLI (`make windows` failed: no MinGW-w64 toolchain) the rest is still written, and
# tools/dist/dist.py says what it left out.
dist: deps-build
	$(CONFIGURE_RELEASE) $(CMAKE_FLAGS)
	cmake --build $(BUILD)/release -j $(JOBS) --target animkit_cli
	@touch $(BUILD)/.dist-started
	@windows=; if ! $(MAKE) --no-print-directory windows; then \
	  echo "dist: make windows failed: no Windows package"; windows="--not-built windows-x64"; fi; \
	  $(MAKE) --no-print-directory blender-addon && \
	  python3 tools/dist/dist.py $(BUILD)/dist --build-dir $(BUILD) --fresh-after $(BUILD)/.dist-started $$windows

# The add-on's table of formats, options and limits, from the library (a test checks it).
blender-formats: build
	$(BUILD)/release/tools/animkit/animkit formats --json > blender/animkit_io/formats.json

clean:
	rm -rf $(BUILD)

# Rewrites samples/ with the project's own encoders (a test checks they match).
samples: build
	$(BUILD)/release/tools/animkit/animkit_make_samples samples
