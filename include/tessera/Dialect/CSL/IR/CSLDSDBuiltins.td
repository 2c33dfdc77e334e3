//===- CSLDSDBuiltins.td - the DSD operations --------------*- tablegen -*-===//
//
// One operation per DSD builtin of csl-reference.md section 3.4, generated
// from one class per signature family. Each operand lists the kinds it
// accepts (memory DSD, fabin, fabout, FIFO, DSR, scalar, pointer) and its
// element width; lib/Dialect/CSL/IR/DSDOperands.cpp checks them.
//
// @map is csl.map (CSLMemoryOps.td): it calls a function per element.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_CSL_CSLDSDBUILTINS_TD
#define TESSERA_DIALECT_CSL_CSLDSDBUILTINS_TD

include "tessera/Dialect/CSL/IR/CSLDSDOps.td"

// Operand kinds and form rules are C++ expressions over the enumerators of
// tessera::csl::dsd (DSDOperands.h): Destination (memory, fabout, FIFO or a
// destination DSR), Source (memory, fabin, FIFO or a source DSR), Scalar and
// Pointer; the form rules Reduction, OneScalar and NeedsDSD.
class DSDOperand<string operandName, string operandKinds, int operandWidth,
                 string scalarClass = "Float"> {
  string name = operandName;
  string kinds = operandKinds;
  int width = operandWidth;
  // What a scalar or pointee of this operand may be: Float, Integer or Any.
  string scalar = scalarClass;
}

// The trailing options every DSD operation accepts.
defvar DSD_Options = (ins UnitAttr:$async,
                          Optional<CSL_LocalTaskID>:$activate,
                          Optional<CSL_TaskIDType>:$unblock,
                          Optional<CSL_MicrothreadIDType>:$ut_id,
                          OptionalAttr<CSL_PriorityAttr>:$priority,
                          Optional<I16>:$index);

// (TableGen pastes an identifier after `#` literally, hence !strconcat.)
defvar DSD_OptionsFormat = [{
  (`async` $async^)? (`activate` $activate^)?
  (`unblock` $unblock^ `:` qualified(type($unblock)))? (`ut_id` $ut_id^)?
  (`priority` custom<EnumKeyword>($priority)^)? (`index` $index^)? attr-dict
}];

class CSL_DSDBuiltinOp<string mnemonic, list<DSDOperand> operandList,
                       string forms, string semantics, string example>
    : CSL_Op<mnemonic, [AttrSizedOperandSegments]> {
  let summary = "CSL's @" # mnemonic # ": " # semantics;
  let description = [{
    A DSD operation. It iterates over the length of its first DSD source
    (else of the second, else of the destination) and computes, per element,
    }] # semantics # [{.

    Options: `async` runs it on a microthread and returns at once;
    `activate` (a local task) and `unblock` (a task) fire when an
    asynchronous operation completes; `ut_id` picks the microthread (WSE-3);
    `priority` is the WSE-2 per-operation priority; `index` is the value
    `wavelet_index_offset` DSDs use.

    Example:

    ```mlir
    }] # example # [{

    ```
  }];
  let arguments = !con(
      !dag(ins, !listsplat(AnyType, !size(operandList)),
           !foreach(o, operandList, o.name)),
      DSD_Options);
  let assemblyFormat = !strconcat(
      !interleave(!foreach(o, operandList, "$" # o.name), " `,` "),
      DSD_OptionsFormat, " `:` ",
      !interleave(!foreach(o, operandList, "type($" # o.name # ")"), " `,` "));
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      using namespace ::tessera::csl::dsd;
      static const OperandRule rules[] = {
  }] # !interleave(!foreach(o, operandList,
         "{\"" # o.name # "\", " # o.kinds # ", " # o.width #
         ", ScalarClass::" # o.scalar # "}"), ",\n") # [{
      };
      return verifyDSDOperation(getOperation(), rules, }] # forms # [{,
          {getAsync(), getActivate(), getUnblock(), getUtId(),
           getPriority(), getIndex()});
    }
  }];
}

//===----------------------------------------------------------------------===//
// Floating-point arithmetic
//===----------------------------------------------------------------------===//

// dest = src0 op src1; one source may be a scalar. With a pointer
// destination and a scalar src0 the scalar is an accumulator (reduction).
class CSL_FloatBinaryOp<string mnemonic, int w, string semantics>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination | Pointer", w>,
         DSDOperand<"src0", "Source | Scalar", w>,
         DSDOperand<"src1", "Source | Scalar", w>],
        "Reduction | OneScalar", semantics,
        "csl." # mnemonic # " %dest, %a, %b : !csl.dsd<mem1d, f" # w #
        ">, !csl.dsd<fabin>, f" # w>;

def CSL_FaddsOp : CSL_FloatBinaryOp<"fadds", 32, "`dest = src0 + src1` in f32">;
def CSL_FsubsOp : CSL_FloatBinaryOp<"fsubs", 32, "`dest = src0 - src1` in f32">;
def CSL_FmulsOp : CSL_FloatBinaryOp<"fmuls", 32, "`dest = src0 * src1` in f32">;
def CSL_FmaxsOp : CSL_FloatBinaryOp<"fmaxs", 32,
                                    "`dest = max(src0, src1)` in f32">;
def CSL_FaddhOp : CSL_FloatBinaryOp<"faddh", 16, "`dest = src0 + src1` in f16">;
def CSL_FsubhOp : CSL_FloatBinaryOp<"fsubh", 16, "`dest = src0 - src1` in f16">;
def CSL_FmulhOp : CSL_FloatBinaryOp<"fmulh", 16, "`dest = src0 * src1` in f16">;
def CSL_FmaxhOp : CSL_FloatBinaryOp<"fmaxh", 16,
                                    "`dest = max(src0, src1)` in f16">;

// Mixed precision: an f32 src0 plus an f16 src1 into f32.
def CSL_FaddhsOp : CSL_DSDBuiltinOp<"faddhs",
    [DSDOperand<"dest", "Destination | Pointer", 32>,
     DSDOperand<"src0", "Source | Scalar", 32>,
     DSDOperand<"src1", "Source | Scalar", 16>],
    "Reduction | OneScalar",
    "`dest = src0 + src1` with f16 `src1` and f32 `src0` and `dest`",
    "csl.faddhs %sum, %sum_val, %h : memref<f32>, f32, !csl.dsd<mem1d, f16>">;

// dest = acc + src * scale.
class CSL_FmacOp<string mnemonic, int w>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination", w>,
         DSDOperand<"acc", "Source", w>,
         DSDOperand<"src", "Source", w>,
         DSDOperand<"scale", "Scalar", w>],
        "NoFormRule", "`dest = acc + src * scale` in f" # w,
        "csl." # mnemonic # " %y, %y, %a, %x : !csl.dsd<mem1d, f" # w #
        ">, !csl.dsd<mem1d, f" # w # ">, !csl.dsd<mem1d, f" # w #
        ">, f" # w>;

def CSL_FmacsOp : CSL_FmacOp<"fmacs", 32>;
def CSL_FmachOp : CSL_FmacOp<"fmach", 16>;

def CSL_FmachsOp : CSL_DSDBuiltinOp<"fmachs",
    [DSDOperand<"dest", "Destination", 32>,
     DSDOperand<"acc", "Source", 32>,
     DSDOperand<"src", "Source", 16>,
     DSDOperand<"scale", "Scalar", 16>],
    "NoFormRule",
    "`dest = acc + src * scale` with f16 `src` and `scale` and f32 `acc` "
    "and `dest`",
    "csl.fmachs %y, %y, %a, %x : !csl.dsd<mem1d, f32>, "
    "!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f16>, f16">;

//===----------------------------------------------------------------------===//
// Floating-point moves and unary operations
//===----------------------------------------------------------------------===//

// Copy, broadcast a scalar (scalar source) or read one element (pointer
// destination).
class CSL_FloatMoveOp<string mnemonic, int w>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination | Pointer", w>,
         DSDOperand<"src", "Source | Scalar", w>],
        "NeedsDSD", "`dest = src` in f" # w,
        "csl." # mnemonic # " %dest, %zero : !csl.dsd<mem1d, f" # w #
        ">, f" # w>;

def CSL_FmovsOp : CSL_FloatMoveOp<"fmovs", 32>;
def CSL_FmovhOp : CSL_FloatMoveOp<"fmovh", 16>;

class CSL_FloatUnaryOp<string mnemonic, int w, string semantics>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination", w>,
         DSDOperand<"src", "Source | Scalar", w>],
        "NoFormRule", semantics,
        "csl." # mnemonic # " %dest, %src : !csl.dsd<fabout>, "
        "!csl.dsd<mem1d, f" # w # ">">;

def CSL_FnegsOp : CSL_FloatUnaryOp<"fnegs", 32, "`dest = -src` in f32">;
def CSL_FneghOp : CSL_FloatUnaryOp<"fnegh", 16, "`dest = -src` in f16">;
def CSL_FabssOp : CSL_FloatUnaryOp<"fabss", 32, "`dest = |src|` in f32">;
def CSL_FabshOp : CSL_FloatUnaryOp<"fabsh", 16, "`dest = |src|` in f16">;

// Conversions; a pointer destination reads one converted element.
class CSL_ConvertOp<string mnemonic, string destKinds, int destBits,
                    string destClass, int srcBits, string srcClass,
                    string semantics, string destType, string srcType>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", destKinds, destBits, destClass>,
         DSDOperand<"src", "Source | Scalar", srcBits, srcClass>],
        "NeedsDSD", semantics,
        "csl." # mnemonic # " %dest, %src : " # destType # ", " # srcType>;

def CSL_Fh2sOp : CSL_ConvertOp<"fh2s", "Destination", 32, "Float", 16, "Float",
    "`dest = f32(src)` from f16", "!csl.dsd<mem1d, f32>",
    "!csl.dsd<mem1d, f16>">;
def CSL_Fs2hOp : CSL_ConvertOp<"fs2h", "Destination", 16, "Float", 32, "Float",
    "`dest = f16(src)` from f32", "!csl.dsd<mem1d, f16>",
    "!csl.dsd<mem1d, f32>">;
def CSL_Fh2xp16Op : CSL_ConvertOp<"fh2xp16", "Destination | Pointer",
    16, "Integer", 16, "Float",
    "`dest = i16(src)`, an f16 converted to a 16-bit integer",
    "memref<i16>", "!csl.dsd<fabin>">;
def CSL_Fs2xp16Op : CSL_ConvertOp<"fs2xp16", "Destination | Pointer",
    16, "Integer", 32, "Float",
    "`dest = i16(src)`, an f32 converted to a 16-bit integer",
    "!csl.dsd<mem1d, i16>", "!csl.dsd<mem1d, f32>">;
def CSL_Xp162fhOp : CSL_ConvertOp<"xp162fh", "Destination", 16, "Float", 16,
    "Integer", "`dest = f16(src)` from a 16-bit integer",
    "!csl.dsd<mem1d, f16>", "!csl.dsd<mem1d, i16>">;
def CSL_Xp162fsOp : CSL_ConvertOp<"xp162fs", "Destination", 32, "Float", 16,
    "Integer", "`dest = f32(src)` from a 16-bit integer",
    "!csl.dsd<mem1d, f32>", "i16">;

// Scalar-only operations on a pointer destination.
class CSL_FscaleOp<string mnemonic, int w>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Pointer", w>,
         DSDOperand<"src", "Scalar", w>,
         DSDOperand<"exponent", "Scalar", 16, "Integer">],
        "NoFormRule", "`*dest = src * 2^exponent` in f" # w,
        "csl." # mnemonic # " %p, %x, %e : memref<f" # w # ">, f" # w #
        ", i16">;

def CSL_FscalesOp : CSL_FscaleOp<"fscales", 32>;
def CSL_FscalehOp : CSL_FscaleOp<"fscaleh", 16>;

class CSL_FnormOp<string mnemonic, int w>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Pointer", w>,
         DSDOperand<"src", "Scalar", w>],
        "NoFormRule", "`*dest = normalize(src)` in f" # w,
        "csl." # mnemonic # " %p, %x : memref<f" # w # ">, f" # w>;

def CSL_FnormsOp : CSL_FnormOp<"fnorms", 32>;
def CSL_FnormhOp : CSL_FnormOp<"fnormh", 16>;

//===----------------------------------------------------------------------===//
// Raw moves and 16-bit integer operations
//===----------------------------------------------------------------------===//

class CSL_RawMoveOp<string mnemonic, int w>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination | Pointer", w, "Any">,
         DSDOperand<"src", "Source | Scalar", w, "Any">],
        "NeedsDSD", "`dest = src`, " # w # " raw bits",
        "csl." # mnemonic # " %out, %in : !csl.dsd<fabout>, !csl.dsd<fabin>">;

def CSL_Mov16Op : CSL_RawMoveOp<"mov16", 16>;
def CSL_Mov32Op : CSL_RawMoveOp<"mov32", 32>;

class CSL_IntBinaryOp<string mnemonic, string src0Kinds, string semantics>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination", 16, "Integer">,
         DSDOperand<"src0", src0Kinds, 16, "Integer">,
         DSDOperand<"src1", "Source | Scalar", 16, "Integer">],
        "OneScalar", semantics,
        "csl." # mnemonic # " %dest, %a, %k : !csl.dsd<mem1d, i16>, "
        "!csl.dsd<fabin>, i16">;

def CSL_Add16Op : CSL_IntBinaryOp<"add16", "Source | Scalar",
    "`dest = src0 + src1` on 16-bit integers">;
def CSL_Addc16Op : CSL_IntBinaryOp<"addc16", "Source | Scalar",
    "`dest = src0 + src1 + carry` on 16-bit integers">;
def CSL_Sub16Op : CSL_IntBinaryOp<"sub16", "Source",
    "`dest = src0 - src1` on 16-bit integers (only `src1` may be a scalar)">;
def CSL_And16Op : CSL_IntBinaryOp<"and16", "Source | Scalar",
    "`dest = src0 & src1` on 16 bits">;
def CSL_Or16Op : CSL_IntBinaryOp<"or16", "Source | Scalar",
    "`dest = src0 | src1` on 16 bits">;
def CSL_Xor16Op : CSL_IntBinaryOp<"xor16", "Source | Scalar",
    "`dest = src0 ^ src1` on 16 bits">;
def CSL_Sll16Op : CSL_IntBinaryOp<"sll16", "Source | Scalar",
    "`dest = src0 << src1` (shift left)">;
def CSL_Slr16Op : CSL_IntBinaryOp<"slr16", "Source | Scalar",
    "`dest = src0 >> src1` (logical shift right)">;
def CSL_Sar16Op : CSL_IntBinaryOp<"sar16", "Source | Scalar",
    "`dest = src0 >> src1` (arithmetic shift right)">;

class CSL_BitCountOp<string mnemonic, string semantics>
    : CSL_DSDBuiltinOp<mnemonic,
        [DSDOperand<"dest", "Destination", 16, "Integer">,
         DSDOperand<"src", "Source | Scalar", 16, "Integer">],
        "NoFormRule", semantics,
        "csl." # mnemonic # " %dest, %src : !csl.dsd<mem1d, i16>, "
        "!csl.dsd<mem1d, i16>">;

def CSL_PopcntOp : CSL_BitCountOp<"popcnt", "the number of set bits of `src`">;
def CSL_ClzOp : CSL_BitCountOp<"clz", "the leading zero bits of `src`">;
def CSL_CtzOp : CSL_BitCountOp<"ctz", "the trailing zero bits of `src`">;

#endif // TESSERA_DIALECT_CSL_CSLDSDBUILTINS_TD
