# Build speed-ups that are used when present: ccache and lld. The compiler is
# chosen by the caller (the Makefile prefers clang-22 when it is installed).
find_program(TESSERA_CCACHE ccache)
if(TESSERA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER ${TESSERA_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${TESSERA_CCACHE})
endif()

# lld must match the compiler's LLVM version for LTO bitcode (pybind11 uses
# LTO), so with clang-22 we look for lld-22's ld.lld first.
if(NOT LLVM_USE_LINKER)
  find_program(TESSERA_LLD NAMES ld.lld PATHS /usr/lib/llvm-22/bin NO_DEFAULT_PATH)
  if(TESSERA_LLD AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(LLVM_USE_LINKER lld)
  endif()
endif()

# ThinLTO for the emulator (runtime/emulator/CMakeLists.txt) needs clang and
# lld of one LLVM version. Links keep the compiled modules in a cache, so a
# program that links the emulator again reuses those that did not change.
set(TESSERA_THINLTO OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND LLVM_USE_LINKER STREQUAL "lld")
  set(TESSERA_THINLTO ON)
  add_link_options(
    "LINKER:--thinlto-cache-dir=${CMAKE_BINARY_DIR}/thinlto-cache"
    "LINKER:--thinlto-cache-policy=cache_size_bytes=1g")
endif()
message(STATUS "ThinLTO for the emulator: ${TESSERA_THINLTO}")
