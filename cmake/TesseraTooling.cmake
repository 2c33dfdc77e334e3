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

