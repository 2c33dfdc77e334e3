// What the lowering refuses, each with an error at the place it is about:
// 64-bit values, fabric DSDs whose color is a run-time value, recursion, a
// program whose data, code and stack do not fit (with the largest pieces),
// a frame over 32,767 bytes, and operations it has no instructions for.
// RUN: tessera-opt --split-input-file \
// RUN:   --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s \
// RUN: | not tessera-translate --split-input-file --csl-to-pe 2>&1 | FileCheck %s
csl.program @wide arch wse3 {
  func.func @f(%a: i32) -> i32 {
    %x = arith.extui %a : i32 to i64
    %y = arith.trunci %x : i64 to i32
    return %y : i32
  }
}

// -----

csl.program @runtime_color arch wse3 {
  func.func @f(%c: !csl.color, %n: i16, %k: f32) {
    %q = csl.get_output_queue 3 : !csl.output_queue
    %d = csl.fabout_dsd extent %n color %c queue %q
    csl.fmovs %d, %k : !csl.dsd<fabout>, f32
    return
  }
}

// -----

csl.program @recursive arch wse3 {
  func.func @down(%n: i16) {
    %c0 = arith.constant 0 : i16
    %stop = arith.cmpi eq, %n, %c0 : i16
    cf.cond_br %stop, ^done, ^again
  ^again:
    %c1 = arith.constant 1 : i16
    %m = arith.subi %n, %c1 : i16
    call @down(%m) : (i16) -> ()
    cf.br ^done
  ^done:
    return
  }
}

// -----

csl.program @too_big arch wse3 {
  memref.global @weights : memref<24560xi16> = dense<0>
  memref.global @x : memref<8xf32> = dense<0.0>
  func.func @f(%i: index) -> f32 {
    %g = memref.get_global @x : memref<8xf32>
    %v = memref.load %g[%i] : memref<8xf32>
    return %v : f32
  }
}

// -----

csl.program @big_frame arch wse3 {
  func.func @f() {
    %a = memref.alloca() : memref<9000xf32>
    return
  }
}

// -----

csl.program @unknown arch wse3 {
  func.func @f(%a: i32, %b: i32) -> i32 {
    %c = arith.ceildivsi %a, %b : i32
    return %c : i32
  }
}

// CHECK: {{.*}}errors.mlir:11:10: error: run-time values of type 'i64' are not supported by this cslc (registers hold 32 bits)
// CHECK: {{.*}}errors.mlir:22:10: error: the color of a fabric DSD must be known at compile time
// CHECK: {{.*}}errors.mlir:31:3: error: 'down' calls itself (directly or through other functions), so its stack size cannot be bounded; recursion is not supported
// CHECK: {{.*}}errors.mlir:47:1: error: program 'too_big' needs 49,192 bytes of 49,152; largest: 'weights' 49,120 bytes, code 36 bytes, 'x' 32 bytes, stack 4 bytes
// CHECK: {{.*}}errors.mlir:48:3: note: 'weights' takes 49,120 bytes
// CHECK: {{.*}}errors.mlir:49:3: note: 'x' takes 32 bytes
// CHECK: {{.*}}errors.mlir:60:3: error: 'f' needs a stack frame of 36,000 bytes; at most 32,767 are supported
// CHECK: {{.*}}errors.mlir:70:10: error: 'arith.ceildivsi' on 'i32' cannot be lowered to the PE instruction set yet
