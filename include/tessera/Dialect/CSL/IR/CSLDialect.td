//===- CSLDialect.td - the csl dialect definition ----------*- tablegen -*-===//
//
// The logical PE program: tasks, colors, queues and DSDs, one module per
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
    semantic analysis: tasks, colors, input and output queues, data structure
    descriptors (DSDs) and the operations on them. There is one `csl` module
    per distinct program instance (a source file with one set of parameters);
    where it runs on the fabric is the business of the `fabric` dialect.
  }];
  let useDefaultTypePrinterParser = 1;
}

class CSL_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<CSL_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class CSL_Op<string mnemonic, list<Trait> traits = []>
    : Op<CSL_Dialect, mnemonic, traits>;

#endif // TESSERA_DIALECT_CSL_CSLDIALECT_TD
