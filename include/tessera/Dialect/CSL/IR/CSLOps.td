//===- CSLOps.td - programs, tasks, handles and queues -----*- tablegen -*-===//
//
// The structure of a program (csl.program, csl.task, csl.export), the
// hardware handles and the task and queue builtins. DSD construction and DSD
// operations are in CSLDSDOps.td and CSLDSDBuiltins.td.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSLOPS_TD
#define TESSERA_DIALECT_CSL_CSLOPS_TD

include "tessera/Dialect/CSL/IR/CSLTypes.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

def CSL_ProgramOp : CSL_Op<"program", [
    IsolatedFromAbove, NoRegionArguments, SymbolTable, Symbol
  ] # GraphRegionNoTerminator.traits> {
  let summary = "One PE program instance after compile-time evaluation";
  let description = [{
    A `csl.program` holds everything one distinct program instance (a source
    file compiled with one set of parameters) puts on a PE: globals
    (`memref.global`), functions (`func.func`), tasks (`csl.task`), FIFOs,
    queue bindings, exports, and the start-up state set by `comptime` blocks.
    Its body is a graph region, so declarations may be used before they
    appear, as at CSL's top level.

    `arch` selects the target facts (task ID ranges, queue counts, ...) that
    the verifiers of nested operations check against. `file` and `params`
    record the source file and the parameters the instance was compiled
    with; they are informational.

    Handle operations (`csl.get_color`, `csl.get_task_id`, ...) and
    `csl.activate`, `csl.block` and `csl.unblock` may appear directly in the
    body: there they describe the state at load time, as the same builtins
    in a top-level `comptime` block do.

    Example:

    ```mlir
    csl.program @pe arch wse3 file "pe.csl" params {width = 4 : i64} {
      memref.global @y : memref<4xf32> = dense<0.0>
      %main = csl.get_task_id 8 : !csl.task_id<local>
      csl.activate %main
      csl.task local @main() id 8 {
        csl.return
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, CSL_ArchAttr:$arch,
                       OptionalAttr<StrAttr>:$file,
                       OptionalAttr<DictionaryAttr>:$params);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `arch` custom<EnumKeyword>($arch) (`file` $file^)?
    (`params` $params^)?
    attr-dict-with-keyword $body
  }];
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "Arch":$arch)>
  ];
  let skipDefaultBuilders = 1;
  let hasRegionVerifier = 1;
}

def CSL_TaskOp : CSL_Op<"task", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    HasParent<"ProgramOp">
  ]> {
  let summary = "A task: code the hardware runs when its ID is picked";
  let description = [{
    A task is a function the hardware task picker runs to completion when
    its ID is activated and unblocked; it cannot be called. Its `kind`
    decides how it is activated and what arguments it takes:

    * `data`: activated by a wavelet on its color (WSE-2) or input queue
      (WSE-3); 1 to 4 arguments of one width that together fit the 32-bit
      payload.
    * `local`: activated by `csl.activate` or by an asynchronous DSD
      operation; no arguments.
    * `control`: activated by a control wavelet naming it; 0 to 4 arguments.

    `id` is the hardware ID the task is bound to (CSL's `@bind_*_task`). It
    is optional so that Sema may leave the choice to an ID allocation pass;
    when present it must lie in the range the architecture gives the kind,
    and no two tasks of a program may share an ID.

    The body is a single-entry CFG region ending in `csl.return`.

    Example:

    ```mlir
    csl.task data @recv(%x: f32) id 2 {
      csl.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       CSL_TaskKindAttr:$kind,
                       OptionalAttr<I64Attr>:$id,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region MinSizedRegion<1>:$body);
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "TaskKind":$kind,
                   "::mlir::TypeRange":$argTypes,
                   CArg<"std::optional<int64_t>", "std::nullopt">:$id)>
  ];
  let skipDefaultBuilders = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def CSL_ReturnOp : CSL_Op<"return", [
    Pure, HasParent<"TaskOp">, ReturnLike, Terminator
  ]> {
  let summary = "Ends a task";
  let description = [{
    Returns from a task to the task picker. Tasks return no value.

    Example:

    ```mlir
    csl.task local @tick() id 9 {
      csl.return
    }
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def CSL_AssertOp : CSL_Op<"assert"> {
  let summary = "Stops the PE when a run-time condition is false";
  let description = [{
    CSL's `@assert(cond)` in run-time code: when `cond` is false the PE
    halts with an assertion failure reported at the op's source location.

    Example:

    ```mlir
    csl.assert %ok
    ```
  }];
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

def CSL_ExportOp : CSL_Op<"export", [
    HasParent<"ProgramOp">, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Makes a global or a function visible to the host";
  let description = [{
    CSL's `@export_symbol`: the host reaches the global or function `symbol`
    under the name `name`, which the layout declares with `@export_name`.
    `type` is the type the host sees and must equal the symbol's type; a
    global may be exported `mutable` (the host may write it), a function
    never. Exported functions return nothing and take 16- or 32-bit scalars;
    exported globals hold 16- or 32-bit elements.

    Example:

    ```mlir
    csl.program @pe arch wse2 {
      memref.global @y : memref<4xf32> = uninitialized
      func.func @compute() {
        return
      }
      csl.export mutable @y as "y" : memref<4xf32>
      csl.export @compute as "compute" : () -> ()
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$symbol, StrAttr:$name,
                       TypeAttr:$type, UnitAttr:$is_mutable);
  let assemblyFormat = [{
    (`mutable` $is_mutable^)? $symbol `as` $name attr-dict `:` $type
  }];
}

//===----------------------------------------------------------------------===//
// Hardware handles
//===----------------------------------------------------------------------===//

class CSL_HandleOp<string mnemonic, Type resultType, string what>
    : CSL_Op<mnemonic, [Pure]> {
  let summary = "The " # what # " with a fixed hardware ID";
  let arguments = (ins I64Attr:$id);
  let results = (outs resultType:$result);
  let assemblyFormat = "$id attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def CSL_GetColorOp : CSL_HandleOp<"get_color", CSL_ColorType, "color"> {
  let description = [{
    Produces the color with hardware ID `id`, as CSL's `@get_color(id)`
    does. Inside a `csl.program` the ID must be a routable color of its
    architecture.

    Example:

    ```mlir
    %c = csl.get_color 3 : !csl.color
    ```
  }];
}

def CSL_GetInputQueueOp
    : CSL_HandleOp<"get_input_queue", CSL_InputQueueType, "input queue"> {
  let description = [{
    Produces input queue `id`, as CSL's `@get_input_queue(id)` does.

    Example:

    ```mlir
    %q = csl.get_input_queue 2 : !csl.input_queue
    ```
  }];
}

def CSL_GetOutputQueueOp
    : CSL_HandleOp<"get_output_queue", CSL_OutputQueueType, "output queue"> {
  let description = [{
    Produces output queue `id`, as CSL's `@get_output_queue(id)` does.

    Example:

    ```mlir
    %q = csl.get_output_queue 1 : !csl.output_queue
    ```
  }];
}

def CSL_GetTaskIDOp : CSL_HandleOp<"get_task_id", CSL_TaskIDType, "task ID"> {
  let description = [{
    Produces a task ID of the kind its type names: CSL's
    `@get_local_task_id(n)`, `@get_control_task_id(n)` and
    `@get_data_task_id(x)` (whose ID is the number of the color on WSE-2 and
    of the input queue on WSE-3). The ID must lie in the kind's range for the
    architecture.

    Example:

    ```mlir
    %t = csl.get_task_id 8 : !csl.task_id<local>
    %d = csl.get_task_id 2 : !csl.task_id<data>
    ```
  }];
}

def CSL_GetMicrothreadIDOp
    : CSL_HandleOp<"get_ut_id", CSL_MicrothreadIDType, "microthread ID"> {
  let description = [{
    CSL's `@get_ut_id(n)` with a compile-time `n`: a microthread for the
    `ut_id` of asynchronous DSD operations. WSE-3 only.

    Example:

    ```mlir
    %ut = csl.get_ut_id 4 : !csl.ut_id
    ```
  }];
}

def CSL_TaskIDOfOp : CSL_Op<"task_id_of", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "The ID of a task, named by symbol";
  let description = [{
    The ID `task` is bound to, whether it is fixed already or will be chosen
    by the task ID allocation pass. This is how CSL code that names a task
    directly (`.activate = f_send`) reaches the IR. The result kind must be
    the task's kind.

    Example:

    ```mlir
    %t = csl.task_id_of @send : !csl.task_id<local>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$task);
  let results = (outs CSL_TaskIDType:$result);
  let assemblyFormat = "$task attr-dict `:` qualified(type($result))";
}

def CSL_GetIntOp : CSL_Op<"get_int", [Pure]> {
  let summary = "The number of a handle";
  let description = [{
    CSL's `@get_int(x)`: the hardware ID behind a color, queue, task ID or
    microthread ID, as an integer.

    Example:

    ```mlir
    %n = csl.get_int %c : !csl.color -> i16
    ```
  }];
  let arguments = (ins CSL_Handle:$handle);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = [{
    $handle attr-dict `:` qualified(type($handle)) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Task control
//===----------------------------------------------------------------------===//

def CSL_ActivateOp : CSL_Op<"activate"> {
  let summary = "Marks a local task runnable";
  let description = [{
    CSL's `@activate(id)`. Inside a function or task it activates the task
    at run time; directly in a `csl.program` it makes the task active at
    start-up, as `@activate` in a top-level `comptime` block does.

    Example:

    ```mlir
    %t = csl.get_task_id 8 : !csl.task_id<local>
    csl.activate %t
    ```
  }];
  let arguments = (ins CSL_LocalTaskID:$task);
  let assemblyFormat = "$task attr-dict";
}

class CSL_BlockingOp<string mnemonic> : CSL_Op<mnemonic> {
  let arguments = (ins CSL_Blockable:$target);
  let assemblyFormat = "$target attr-dict `:` qualified(type($target))";
  let hasVerifier = 1;
}

def CSL_BlockOp : CSL_BlockingOp<"block"> {
  let summary = "Stops a task ID, color, queue or microthread from running";
  let description = [{
    CSL's `@block(x)`: a blocked task is not picked even when active. `x` is
    a task ID, a color (WSE-2), an input or output queue or a microthread
    ID (WSE-3). Directly in a `csl.program` it sets the start-up state.

    Example:

    ```mlir
    %t = csl.get_task_id 2 : !csl.task_id<data>
    csl.block %t : !csl.task_id<data>
    ```
  }];
}

def CSL_UnblockOp : CSL_BlockingOp<"unblock"> {
  let summary = "Lets a task ID, color, queue or microthread run again";
  let description = [{
    CSL's `@unblock(x)`, with the operands `csl.block` accepts.

    Example:

    ```mlir
    %q = csl.get_input_queue 3 : !csl.input_queue
    csl.unblock %q : !csl.input_queue
    ```
  }];
}

def CSL_QueueFlushOp : CSL_Op<"queue_flush"> {
  let summary = "Activates the teardown task once a queue is empty (WSE-3)";
  let description = [{
    CSL's `@queue_flush(q)`, a run-time builtin of WSE-3.

    Example:

    ```mlir
    %q = csl.get_input_queue 2 : !csl.input_queue
    csl.queue_flush %q : !csl.input_queue
    ```
  }];
  let arguments = (ins CSL_AnyQueue:$queue);
  let assemblyFormat = "$queue attr-dict `:` qualified(type($queue))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Queue and teardown bindings (compile time)
//===----------------------------------------------------------------------===//

def CSL_InitializeQueueOp : CSL_Op<"initialize_queue", [
    HasParent<"ProgramOp">
  ]> {
  let summary = "Binds a queue to a color";
  let description = [{
    CSL's `@initialize_queue(q, .{ .color = c })` from a `comptime` block:
    queue `queue` of the given direction carries color `color`. WSE-3
    requires it for every queue a program uses; WSE-2 accepts it. A queue is
    bound at most once per program. `ctrl_table_id` (input queues of a
    program with a `csl.control_task_table` only) offsets the control
    task entries of the control wavelets arriving through the queue.

    Example:

    ```mlir
    csl.initialize_queue input 2 color 5
    csl.initialize_queue output 3 color 6
    ```
  }];
  let arguments = (ins CSL_QueueKindAttr:$queue_kind, I64Attr:$queue,
                       I64Attr:$color, OptionalAttr<I64Attr>:$ctrl_table_id);
  let assemblyFormat = [{
    custom<EnumKeyword>($queue_kind) $queue `color` $color
    (`ctrl_table_id` $ctrl_table_id^)? attr-dict
  }];
  let hasVerifier = 1;
}

def CSL_ControlTaskTableOp : CSL_Op<"control_task_table", [
    HasParent<"ProgramOp">
  ]> {
  let summary = "Gives control tasks a task table of their own (WSE-3)";
  let description = [{
    CSL's `@set_control_task_table(.{ .instructions = n, .stride = s })`
    from a `comptime` block. Control tasks leave the task table they share
    with data and local tasks for a separate 64-entry table, so a control
    task ID no longer collides with a data or local task ID. Each entry
    holds `instructions` (2, 4 or 8) instructions. A control wavelet with
    entry point `e` arriving through an input queue whose
    `csl.initialize_queue` carries `ctrl_table_id k` runs entry
    `(e + k * stride) mod 64`. WSE-3 only; at most one per program.

    Example:

    ```mlir
    csl.control_task_table instructions 4 stride 1
    ```
  }];
  let arguments = (ins I64Attr:$instructions, I64Attr:$stride);
  let assemblyFormat = [{
    `instructions` $instructions `stride` $stride attr-dict
  }];
  let hasVerifier = 1;
}

def CSL_SetTeardownHandlerOp : CSL_Op<"set_teardown_handler", [
    HasParent<"ProgramOp">, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Registers the function the teardown task runs for a color";
  let description = [{
    CSL's `@set_teardown_handler(f, color)` from a `comptime` block: when
    `color` enters teardown, the hardware teardown task calls `handler`, a
    `func.func` without arguments or results.

    Example:

    ```mlir
    csl.set_teardown_handler @on_teardown color 4
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$handler, I64Attr:$color);
  let assemblyFormat = "$handler `color` $color attr-dict";
  let hasVerifier = 1;
}

#endif // TESSERA_DIALECT_CSL_CSLOPS_TD
