//===- CSLEnums.td - csl dialect enumerations --------------*- tablegen -*-===//

#ifndef TESSERA_DIALECT_CSL_CSLENUMS_TD
#define TESSERA_DIALECT_CSL_CSLENUMS_TD

include "tessera/Dialect/CSL/IR/CSLDialect.td"
include "mlir/IR/EnumAttr.td"

def CSL_Arch : I32EnumAttr<"Arch", "a Cerebras wafer-scale engine generation", [
    I32EnumAttrCase<"WSE2", 0, "wse2">,
    I32EnumAttrCase<"WSE3", 1, "wse3">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::csl";
}
def CSL_ArchAttr : EnumAttr<CSL_Dialect, CSL_Arch, "arch">;

def CSL_TaskKind : I32EnumAttr<"TaskKind", "the kind of a task", [
    I32EnumAttrCase<"Data", 0, "data">,
    I32EnumAttrCase<"Local", 1, "local">,
    I32EnumAttrCase<"Control", 2, "control">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::csl";
}
def CSL_TaskKindAttr : EnumAttr<CSL_Dialect, CSL_TaskKind, "task_kind">;

def CSL_DSDKind : I32EnumAttr<"DSDKind", "the kind of a DSD", [
    I32EnumAttrCase<"Mem1d", 0, "mem1d">,
    I32EnumAttrCase<"Mem4d", 1, "mem4d">,
    I32EnumAttrCase<"Circbuf", 2, "circbuf">,
    I32EnumAttrCase<"Fabin", 3, "fabin">,
    I32EnumAttrCase<"Fabout", 4, "fabout">,
    I32EnumAttrCase<"Fifo", 5, "fifo">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::csl";
}

def CSL_DSRKind : I32EnumAttr<"DSRKind", "a file of data structure registers", [
    I32EnumAttrCase<"Dest", 0, "dest">,
    I32EnumAttrCase<"Src0", 1, "src0">,
    I32EnumAttrCase<"Src1", 2, "src1">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::csl";
}

def CSL_QueueKind : I32EnumAttr<"QueueKind", "the direction of a queue", [
    I32EnumAttrCase<"Input", 0, "input">,
    I32EnumAttrCase<"Output", 1, "output">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::csl";
}
def CSL_QueueKindAttr : EnumAttr<CSL_Dialect, CSL_QueueKind, "queue_kind">;

def CSL_Priority : I32EnumAttr<"Priority", "a microthread priority", [
    I32EnumAttrCase<"Low", 0, "low">,
    I32EnumAttrCase<"Medium", 1, "medium">,
    I32EnumAttrCase<"High", 2, "high">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessera::csl";
}
def CSL_PriorityAttr : EnumAttr<CSL_Dialect, CSL_Priority, "priority">;

#endif // TESSERA_DIALECT_CSL_CSLENUMS_TD
