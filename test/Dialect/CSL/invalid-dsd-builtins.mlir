// RUN: tessera-opt %s -split-input-file -verify-diagnostics
// Operand kinds, element widths, forms and options of the DSD operations.

func.func @f(%m: !csl.dsd<mem1d, f32>, %out: !csl.dsd<fabout>) {
  // expected-error @+1 {{'csl.fadds' op operand 'src0' must be a memory DSD, a fabin DSD, a FIFO, a source DSR or a 32-bit float scalar, got '!csl.dsd<fabout>'}}
  csl.fadds %m, %out, %m : !csl.dsd<mem1d, f32>, !csl.dsd<fabout>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %in: !csl.dsd<fabin>) {
  // expected-error @+1 {{'csl.fadds' op operand 'dest' must be a memory DSD, a fabout DSD, a FIFO, a destination DSR or a pointer to a 32-bit float, got '!csl.dsd<fabin>'}}
  csl.fadds %in, %m, %m : !csl.dsd<fabin>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %x: f16) {
  // expected-error @+1 {{'csl.fmuls' op operand 'src1' must be a memory DSD, a fabin DSD, a FIFO, a source DSR or a 32-bit float scalar, got 'f16'}}
  csl.fmuls %m, %m, %x : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, f16
  return
}

// -----

func.func @f(%h: !csl.dsd<fifo, f16>, %m: !csl.dsd<mem1d, f32>) {
  // expected-error @+1 {{'csl.fmacs' op operand 'src' has 16-bit elements ('!csl.dsd<fifo, f16>'), expected 32-bit}}
  csl.fmacs %m, %m, %h, %m : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<fifo, f16>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>) {
  // expected-error @+1 {{'csl.fmacs' op operand 'scale' must be a 32-bit float scalar, got '!csl.dsd<mem1d, f32>'}}
  csl.fmacs %m, %m, %m, %m : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%p: memref<f32>, %m: !csl.dsd<mem1d, f32>) {
  // expected-error @+1 {{'csl.fadds' op with a pointer destination, 'src0' must be a scalar accumulator and 'src1' a DSD}}
  csl.fadds %p, %m, %m : memref<f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%p: memref<f32>, %x: f32) {
  // expected-error @+1 {{'csl.fmaxs' op with a pointer destination, 'src0' must be a scalar accumulator and 'src1' a DSD}}
  csl.fmaxs %p, %x, %x : memref<f32>, f32, f32
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %x: f32) {
  // expected-error @+1 {{'csl.fsubs' op at most one of 'src0' and 'src1' may be a scalar}}
  csl.fsubs %m, %x, %x : !csl.dsd<mem1d, f32>, f32, f32
  return
}

// -----

func.func @f(%w: !csl.dsd<mem1d, i16>, %k: i16) {
  // expected-error @+1 {{'csl.xor16' op at most one of 'src0' and 'src1' may be a scalar}}
  csl.xor16 %w, %k, %k : !csl.dsd<mem1d, i16>, i16, i16
  return
}

// -----

func.func @f(%p: memref<f32>, %x: f32) {
  // expected-error @+1 {{'csl.fmovs' op needs at least one DSD operand}}
  csl.fmovs %p, %x : memref<f32>, f32
  return
}

// -----

func.func @f(%p: memref<i16>, %x: f16) {
  // expected-error @+1 {{'csl.fh2xp16' op needs at least one DSD operand}}
  csl.fh2xp16 %p, %x : memref<i16>, f16
  return
}

// -----

// sub16 takes a scalar only as its second source.
func.func @f(%w: !csl.dsd<mem1d, i16>, %k: i16) {
  // expected-error @+1 {{'csl.sub16' op operand 'src0' must be a memory DSD, a fabin DSD, a FIFO or a source DSR, got 'i16'}}
  csl.sub16 %w, %k, %w : !csl.dsd<mem1d, i16>, i16, !csl.dsd<mem1d, i16>
  return
}

// -----

func.func @f(%w: !csl.dsd<mem1d, i16>, %x: f16) {
  // expected-error @+1 {{'csl.add16' op operand 'src1' must be a memory DSD, a fabin DSD, a FIFO, a source DSR or a 16-bit integer scalar, got 'f16'}}
  csl.add16 %w, %w, %x : !csl.dsd<mem1d, i16>, !csl.dsd<mem1d, i16>, f16
  return
}

// -----

func.func @f(%out: !csl.dsd<fabout>, %x: i32) {
  // expected-error @+1 {{'csl.mov16' op operand 'src' must be a memory DSD, a fabin DSD, a FIFO, a source DSR or a 16-bit scalar, got 'i32'}}
  csl.mov16 %out, %x : !csl.dsd<fabout>, i32
  return
}

// -----

func.func @f(%p: memref<f32>, %x: f32) {
  // expected-error @+1 {{'csl.fscales' op operand 'exponent' must be a 16-bit integer scalar, got 'f32'}}
  csl.fscales %p, %x, %x : memref<f32>, f32, f32
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f16>, %x: f16) {
  // expected-error @+1 {{'csl.fnormh' op operand 'dest' must be a pointer to a 16-bit float, got '!csl.dsd<mem1d, f16>'}}
  csl.fnormh %m, %x : !csl.dsd<mem1d, f16>, f16
  return
}

// -----

func.func @f(%p: memref<4xf32>, %m: !csl.dsd<mem1d, f32>) {
  // expected-error @+1 {{'csl.fmovs' op operand 'dest' must be a memory DSD, a fabout DSD, a FIFO, a destination DSR or a pointer to a 32-bit float, got 'memref<4xf32>'}}
  csl.fmovs %p, %m : memref<4xf32>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%r: !csl.dsr<src1>, %m: !csl.dsd<mem1d, f32>) {
  // expected-error @+1 {{'csl.fnegs' op operand 'dest' must be a memory DSD, a fabout DSD, a FIFO or a destination DSR, got '!csl.dsr<src1>'}}
  csl.fnegs %r, %m : !csl.dsr<src1>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %r: !csl.dsr<dest>) {
  // expected-error @+1 {{'csl.fabss' op operand 'src' must be a memory DSD, a fabin DSD, a FIFO, a source DSR or a 32-bit float scalar, got '!csl.dsr<dest>'}}
  csl.fabss %m, %r : !csl.dsd<mem1d, f32>, !csl.dsr<dest>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %t: !csl.task_id<local>) {
  // expected-error @+1 {{'csl.fadds' op 'activate' applies only to 'async' operations}}
  csl.fadds %m, %m, %m activate %t : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %t: !csl.task_id<data>) {
  // expected-error @+1 {{'csl.fadds' op 'unblock' applies only to 'async' operations}}
  csl.fadds %m, %m, %m unblock %t : !csl.task_id<data> : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %ut: !csl.ut_id) {
  // expected-error @+1 {{'csl.fadds' op 'ut_id' applies only to 'async' operations}}
  csl.fadds %m, %m, %m ut_id %ut : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
  return
}

// -----

csl.program @p arch wse2 {
  func.func @f(%m: !csl.dsd<mem1d, f32>, %ut: !csl.ut_id) {
    // expected-error @+1 {{'csl.fadds' op 'ut_id' is not available on wse2}}
    csl.fadds %m, %m, %m async ut_id %ut : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
    return
  }
}

// -----

csl.program @p arch wse3 {
  func.func @f(%m: !csl.dsd<mem1d, f32>) {
    // expected-error @+1 {{'csl.fadds' op 'priority' on a DSD operation is not available on wse3; set it on the fabric DSD or FIFO}}
    csl.fadds %m, %m, %m priority high : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
    return
  }
}

// -----

func.func @f(%m: !csl.dsd<mem1d, f32>, %t: !csl.task_id<data>) {
  // expected-error @+1 {{'csl.fadds' op operand #3 must be !csl.task_id<local>, but got '!csl.task_id<data>'}}
  "csl.fadds"(%m, %m, %m, %t) <{async, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}> : (!csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.task_id<data>) -> ()
  return
}
