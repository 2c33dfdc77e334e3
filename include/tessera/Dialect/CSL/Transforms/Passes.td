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
    Checks the resources a program names against the TargetModel of its
    arch, beyond what each operation's verifier checks on its own (task ID
    ranges per kind, one task per ID, color, queue and microthread ranges):
    DSR indices, the number of FIFOs, control tasks on the null task ID,
    queues and colors bound inconsistently, and with `memcpy` the task IDs,
    colors and queues the memcpy infrastructure reserves. Only handles with
    constant IDs are checked. Each error names the resource and the numbers
    at the operation that binds or uses it.
  }];
  let options = [
    Option<"memcpy", "memcpy", "bool", /*default=*/"false",
           "The program runs with the memcpy infrastructure (cslc --memcpy), "
           "whose task IDs, colors and queues are then off limits to it">
  ];
}

def AllocateMemory : Pass<"tessera-allocate-memory", "::tessera::csl::ProgramOp"> {
  let summary = "Give every global of a program its address in PE memory";
  let description = [{
    Lays out a program's initialised data, zero-filled data, pointer and DSD
    slots from address 0 upward and records each address as `csl.address`,
    and on the program the end of the initialised data (`csl.data_end`) and
    of the zero-filled data (`csl.bss_end`). When the data alone does not
    fit in the PE's memory, the error lists the largest consumers with their
    sizes.
  }];
}

#endif // TESSERA_CSL_TRANSFORMS_PASSES
