// The lowering needs tessera-allocate-memory's addresses and layout.
// RUN: not tessera-translate --csl-to-pe %s 2>&1 | FileCheck %s

csl.program @p arch wse3 {
  // CHECK: no-layout.mlir:[[@LINE+1]]:3: error: global 'x' has no address (run tessera-allocate-memory first)
  memref.global @x : memref<4xf32> = dense<0.0>
}

// CHECK: no-layout.mlir:[[@LINE+1]]:1: error: program 'q' has no memory layout (run tessera-allocate-memory first)
csl.program @q arch wse3 {
  func.func @f() {
    return
  }
}
