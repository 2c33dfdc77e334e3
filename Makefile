# Thin wrapper over CMake. Every target installs missing dependencies first, so
# `make demo` and `make test` work on a fresh Debian machine.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
BUILD_TYPE ?= Release

# Prefer clang-22 (faster than g++ on this code, and it matches lld-22 for LTO).
# Looked up when configuring, after deps may have installed it on a fresh
# machine (a lookup at parse time would pick g++ there).
COMPILER_FLAGS = $(if $(shell command -v clang++-22 2>/dev/null),-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)

.PHONY: all deps configure build test demo docs bench clean format

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja:
	@$(MAKE) --no-print-directory deps
	cmake -G Ninja -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(COMPILER_FLAGS)

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@bash scripts/run-tests.sh $(BUILD_DIR) $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD_DIR)

# Runs every bench/<name>/run.sh, then writes bench/results.json and the
# summary of docs/Performance.md. Settings pass through, e.g. `make bench
# QUICK=1`, RUNS=N, THREADS=N, BENCH_ONLY=stencil,gemv, CSL_EXAMPLES=DIR
# (docs/Performance.md, "Running the benchmarks").
bench: build
	@bash bench/run-all.sh $(BUILD_DIR)

# Refresh the generated dialect reference in docs/Dialects/ after editing .td files.
docs: build
	@bash scripts/sync-dialect-docs.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i
