//===- CSLTypes.td - csl dialect types ---------------------*- tablegen -*-===//
//
// Only what upstream has no type for: hardware handles, DSDs and DSRs. All
// of them can live in memory (memref.global) like any CSL value.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSLTYPES_TD
#define TESSERA_DIALECT_CSL_CSLTYPES_TD

include "tessera/Dialect/CSL/IR/CSLEnums.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class CSL_HandleType<string name, string typeMnemonic>
    : CSL_Type<name, typeMnemonic, [MemRefElementTypeInterface]>;

def CSL_ColorType : CSL_HandleType<"Color", "color"> {
  let summary = "a color";
  let description = [{
    A color names one virtual channel of the fabric. Wavelets carry their
    color, routers forward them by color, and on WSE-2 a color also selects
    the data task that a wavelet activates.

    Example:

    ```mlir
    %c = csl.get_color 3 : !csl.color
    ```
  }];
}

def CSL_InputQueueType : CSL_HandleType<"InputQueue", "input_queue"> {
  let summary = "an input queue";
  let description = [{
    One of the PE's input queues: a hardware FIFO from the router to the
    compute engine. On WSE-3 it must be bound to a color with
    `csl.initialize_queue`, and a data task ID is an input queue ID.

    Example:

    ```mlir
    %q = csl.get_input_queue 2 : !csl.input_queue
    ```
  }];
}

def CSL_OutputQueueType : CSL_HandleType<"OutputQueue", "output_queue"> {
  let summary = "an output queue";
  let description = [{
    One of the PE's output queues: a hardware FIFO from the compute engine
    to the router, written by fabout DSDs.

    Example:

    ```mlir
    %q = csl.get_output_queue 1 : !csl.output_queue
    ```
  }];
}

def CSL_TaskIDType : CSL_HandleType<"TaskID", "task_id"> {
  let summary = "a task ID";
  let description = [{
    CSL's `data_task_id`, `local_task_id` and `control_task_id`, told apart
    by the kind parameter.

    Example:

    ```mlir
    %t = csl.get_task_id 8 : !csl.task_id<local>
    ```
  }];
  let parameters = (ins EnumParameter<CSL_TaskKind>:$kind);
  let assemblyFormat = "`<` $kind `>`";
}

def CSL_MicrothreadIDType : CSL_HandleType<"MicrothreadID", "ut_id"> {
  let summary = "a microthread ID";
  let description = [{
    A microthread runs asynchronous DSD operations (WSE-3 names them; WSE-2
    picks them implicitly).

    Example:

    ```mlir
    %ut = csl.get_ut_id 4 : !csl.ut_id
    ```
  }];
}

def CSL_DSDType : CSL_HandleType<"DSD", "dsd"> {
  let summary = "a DSD";
  let description = [{
    A DSD describes a sequence of operands for a DSD operation: memory
    (`mem1d`, `mem4d`, `circbuf`), the fabric (`fabin`, `fabout`) or a
    hardware FIFO (`fifo`). Memory DSDs and FIFOs carry the element type of
    the memory they describe; fabric DSDs carry none, because wavelets are
    untyped 32-bit words and the operation decides how to read them.

    DSD values are immutable: the mutators return a new DSD.

    Example:

    ```mlir
    func.func private @f(!csl.dsd<mem1d, f32>, !csl.dsd<fabin>,
                         !csl.dsd<fifo, i16>)
    ```
  }];
  let parameters = (ins EnumParameter<CSL_DSDKind>:$kind,
                        OptionalParameter<"::mlir::Type">:$elementType);
  let assemblyFormat = "`<` $kind (`,` $elementType^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// mem1d, mem4d and circbuf describe memory.
    bool isMemory() const;
    /// fabin and fabout describe the fabric.
    bool isFabric() const;
  }];
}

def CSL_DSRType : CSL_HandleType<"DSR", "dsr"> {
  let summary = "a data structure register";
  let description = [{
    A register of one file (`dest`, `src0`, `src1`) that holds a loaded
    DSD. Programs name DSRs only when they load them explicitly with
    `csl.load_to_dsr`; otherwise the compiler allocates them.

    Example:

    ```mlir
    %r = csl.get_dsr 1 : !csl.dsr<src0>
    ```
  }];
  let parameters = (ins EnumParameter<CSL_DSRKind>:$kind);
  let assemblyFormat = "`<` $kind `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints used by the operations
//===----------------------------------------------------------------------===//

class CSL_TaskIDOfKind<string kind>
    : Type<And<[CPred<"::mlir::isa<::tessera::csl::TaskIDType>($_self)">,
                CPred<"::mlir::cast<::tessera::csl::TaskIDType>($_self)"
                      ".getKind() == ::tessera::csl::TaskKind::" # kind>]>,
           "!csl.task_id<" # !tolower(kind) # ">",
           "::tessera::csl::TaskIDType">,
      BuildableType<"::tessera::csl::TaskIDType::get($_builder.getContext(), "
                    "::tessera::csl::TaskKind::" # kind # ")">;

def CSL_LocalTaskID : CSL_TaskIDOfKind<"Local">;

def CSL_AnyDSD : Type<CPred<"::mlir::isa<::tessera::csl::DSDType>($_self)">,
                      "a DSD", "::tessera::csl::DSDType">;

// What @block and @unblock accept: a task ID, and depending on the
// architecture a color, a queue or a microthread ID.
def CSL_Blockable : AnyTypeOf<[CSL_TaskIDType, CSL_ColorType,
                               CSL_InputQueueType, CSL_OutputQueueType,
                               CSL_MicrothreadIDType],
                              "a task ID, color, queue or microthread ID">;

def CSL_AnyQueue : AnyTypeOf<[CSL_InputQueueType, CSL_OutputQueueType],
                             "an input or output queue">;

// Handles that @get_int turns back into their number.
def CSL_Handle : AnyTypeOf<[CSL_TaskIDType, CSL_ColorType, CSL_InputQueueType,
                            CSL_OutputQueueType, CSL_MicrothreadIDType],
                           "a task ID, color, queue or microthread ID">;

#endif // TESSERA_DIALECT_CSL_CSLTYPES_TD
