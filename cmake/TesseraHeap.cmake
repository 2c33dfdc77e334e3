# The heap of the programs that compile or run a fabric: cslc, tessera-run
# and tessera-run-mpi link jemalloc (tessera_use_huge_page_heap below), and
# cs_python preloads it (tools/cs_python). docs/Performance.md, "The heap on
# huge pages". A large fabric's PEs own millions of small blocks (written
# memory pages, descriptors, FIFOs) that every cycle visits, and the
# compiler's MLIR is millions more; on glibc's 4 KiB pages most of those
# visits also miss the TLB. The options (TESSERA_JEMALLOC_CONF): 2 MiB pages
# for everything jemalloc maps, and freed memory kept for reuse rather than
# given back to the kernel, which would fault it in again, page by zeroed
# page, when the program allocates anew.
option(TESSERA_JEMALLOC
       "Link cslc and tessera-run, and run cs_python, on jemalloc on huge pages"
       ON)
set(TESSERA_JEMALLOC_CONF
    "thp:always,metadata_thp:always,dirty_decay_ms:-1,muzzy_decay_ms:-1")
set(TESSERA_HEAP system)
# The library itself (libjemalloc.so.2) for cs_python's LD_PRELOAD; empty
# without jemalloc.
set(TESSERA_JEMALLOC_PRELOAD "")
if(TESSERA_JEMALLOC)
  find_library(TESSERA_JEMALLOC_LIBRARY NAMES jemalloc)
  if(TESSERA_JEMALLOC_LIBRARY)
    set(TESSERA_HEAP jemalloc)
    get_filename_component(TESSERA_JEMALLOC_PRELOAD
                           ${TESSERA_JEMALLOC_LIBRARY} REALPATH)
  else()
    message(WARNING "cslc and tessera-run are linked with the system's "
                    "malloc: libjemalloc is missing (scripts/install-deps.sh "
                    "installs libjemalloc-dev)")
  endif()
endif()
message(STATUS "Heap of cslc and tessera-run: ${TESSERA_HEAP}")

# Links `target` with jemalloc and its options (tools/heap), when the build
# has jemalloc; else leaves it on the system's malloc.
function(tessera_use_huge_page_heap target)
  if(TESSERA_HEAP STREQUAL "jemalloc")
    # The options' object is one of the program's own, not a library
    # member that the link could leave out, and is exported for libjemalloc
    # to find.
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:TesseraHugePageHeap>)
    target_link_libraries(${target} PRIVATE ${TESSERA_JEMALLOC_LIBRARY})
    target_link_options(${target} PRIVATE
      "LINKER:--export-dynamic-symbol=malloc_conf")
  endif()
endfunction()
