//===- CSLDialect.td - the csl dialect definition ----------*- tablegen -*-===//
//
// The logical PE program: tasks, colors, queues and DSDs, one csl.program per
// distinct program instance.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSLDIALECT_TD
#define TESSERA_DIALECT_CSL_CSLDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def CSL_Dialect : Dialect {
  let name = "csl";
  let cppNamespace = "::tessera::csl";
  let summary = "The logical program of one processing element";
  let description = [{
    The `csl` dialect models a CSL program as the compiler sees it after
    semantic analysis and compile-time evaluation: tasks, colors, input and
    output queues, data structure descriptors (DSDs) and the operations on
    them. There is one `csl.program` per distinct program instance (a source
    file with one set of parameters); where it runs on the fabric is the
    business of the `fabric` dialect.

    Run-time scalar code uses the upstream `func`, `arith`, `scf`, `cf` and
    `memref` dialects: functions are `func.func`, arrays and scalar globals
    are `memref.global`, pointers are memrefs (`*f32` is `memref<f32>`,
    `[*]f32` is `memref<?xf32>`), and integers are signless (`u16` and `i16`
    are both `i16`; the arith operation says how to interpret them). This
    dialect adds only what upstream lacks: the hardware handles (colors,
    queues, task IDs, microthread IDs, DSRs), DSDs and FIFOs, tasks, and the
    DSD operations.

    Target-dependent invariants (task ID ranges, queue counts, which builtins
    exist on which architecture) are checked against the architecture of the
    enclosing `csl.program`; outside one only the target-independent rules
    apply. See docs/Dialects.md for an overview.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class CSL_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<CSL_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class CSL_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<CSL_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class CSL_Op<string mnemonic, list<Trait> traits = []>
    : Op<CSL_Dialect, mnemonic, traits>;

#endif // TESSERA_DIALECT_CSL_CSLDIALECT_TD
