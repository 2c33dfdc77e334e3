# How the emulator's libraries are optimised (docs/Performance.md, "How the
# emulator is built"): ThinLTO and profile-guided optimisation. Included
# after TesseraTooling.cmake, which chooses the linker; the flags are
# applied in runtime/emulator/CMakeLists.txt.

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

# Profile-guided optimisation of the emulator (docs/Performance.md, "How the
# emulator is built"): `use` compiles it with the profile in
# runtime/emulator/pgo, `generate` instruments it to record a new one
# (scripts/update-emulator-profile.sh), `off` does neither. With clang only;
# the profile is turned into clang's binary form here, by the llvm-profdata
# of the same LLVM, and CMake runs again when it changes.
set(TESSERA_EMULATOR_PGO use CACHE STRING
    "Profile-guided optimisation of the emulator: use, generate or off")
set_property(CACHE TESSERA_EMULATOR_PGO PROPERTY STRINGS use generate off)
set(TESSERA_EMULATOR_PGO_FLAGS "")
set(TESSERA_EMULATOR_PROFILE
    ${PROJECT_SOURCE_DIR}/runtime/emulator/pgo/emulator.proftext)
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(TESSERA_EMULATOR_PGO_MODE off)
else()
  set(TESSERA_EMULATOR_PGO_MODE ${TESSERA_EMULATOR_PGO})
endif()
if(TESSERA_EMULATOR_PGO_MODE STREQUAL "generate")
  set(TESSERA_EMULATOR_PGO_FLAGS -fprofile-instr-generate)
  add_link_options(-fprofile-instr-generate)
elseif(TESSERA_EMULATOR_PGO_MODE STREQUAL "use")
  string(REGEX MATCH "^[0-9]+" clang_major "${CMAKE_CXX_COMPILER_VERSION}")
  find_program(TESSERA_LLVM_PROFDATA
    NAMES llvm-profdata-${clang_major} llvm-profdata
    PATHS /usr/lib/llvm-${clang_major}/bin)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${TESSERA_EMULATOR_PROFILE})
  if(TESSERA_LLVM_PROFDATA AND EXISTS ${TESSERA_EMULATOR_PROFILE})
    # Named by the profile's hash, so that a new profile changes the
    # compile commands: ninja rebuilds the emulator and ccache misses.
    file(MD5 ${TESSERA_EMULATOR_PROFILE} profile_hash)
    string(SUBSTRING ${profile_hash} 0 12 profile_hash)
    set(TESSERA_EMULATOR_PROFDATA
        ${CMAKE_BINARY_DIR}/emulator-${profile_hash}.profdata)
    execute_process(
      COMMAND ${TESSERA_LLVM_PROFDATA} merge -o ${TESSERA_EMULATOR_PROFDATA}
              ${TESSERA_EMULATOR_PROFILE}
      RESULT_VARIABLE TESSERA_PROFILE_MERGED
      ERROR_VARIABLE TESSERA_PROFILE_MERGE_ERROR)
  endif()
  if(DEFINED TESSERA_PROFILE_MERGED AND TESSERA_PROFILE_MERGED EQUAL 0)
    # A profile older than the code still helps the functions that did not
    # change; clang skips the others, and need not say so for each.
    set(TESSERA_EMULATOR_PGO_FLAGS
        -fprofile-instr-use=${TESSERA_EMULATOR_PROFDATA}
        -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date
        -Wno-profile-instr-missing)
  else()
    message(WARNING "the emulator is built without its profile: "
                    "llvm-profdata-${clang_major} or "
                    "${TESSERA_EMULATOR_PROFILE} is missing or unreadable "
                    "${TESSERA_PROFILE_MERGE_ERROR}")
    set(TESSERA_EMULATOR_PGO_MODE off)
  endif()
endif()
message(STATUS "Profile-guided optimisation of the emulator: "
               "${TESSERA_EMULATOR_PGO_MODE}")

