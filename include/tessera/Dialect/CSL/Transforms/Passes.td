//===- Passes.td - passes over csl programs ---------------*- tablegen -*-===//
//
// The csl half of the backend pipeline (docs/Passes.md): check the
// program's resources against the TargetModel, then lay out its memory.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CSL_TRANSFORMS_PASSES
#define TESSERA_CSL_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def VerifyResources : Pass<"tessera-verify-resources", "::tessera::csl::ProgramOp"> {
  let summary = "Check task IDs, queues, microthreads and DSRs against the target";
  let description = [{
    Checks every resource a program names against the TargetModel of its
    arch: task IDs (range, kind, one task per ID), input and output queues,
    microthread IDs, DSR indices, and with `memcpy` the IDs, colors and
    queues the memcpy infrastructure reserves. Each error names the
    resource, the numbers, and the source line that binds it.
  }];
}

def AllocateMemory : Pass<"tessera-allocate-memory", "::tessera::csl::ProgramOp"> {
  let summary = "Give every global of a program its address in PE memory";
  let description = [{
    Lays out a program's initialised data, zero-filled data, pointer and DSD
    slots from address 0 upward and records each address as `csl.address`.
    When the data alone does not fit in the PE's memory, the error lists the
    largest consumers with their sizes.
  }];
}

#endif // TESSERA_CSL_TRANSFORMS_PASSES
