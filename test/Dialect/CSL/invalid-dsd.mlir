// RUN: tessera-opt %s -split-input-file -verify-diagnostics
// DSD construction, FIFOs, mutators and DSRs.

func.func @f(%a: memref<?xf32>) {
  %n = arith.constant 32767 : i16
  // expected-error @+1 {{'csl.mem1d_dsd' op extent 32767 is out of range for a memory DSD (0..32766)}}
  %d = csl.mem1d_dsd %a extent %n : memref<?xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<?xf32>, %n: i16) {
  // expected-error @+1 {{'csl.mem1d_dsd' op result must be a mem1d DSD, got '!csl.dsd<mem4d, f32>'}}
  %d = csl.mem1d_dsd %a extent %n : memref<?xf32> -> !csl.dsd<mem4d, f32>
  return
}

// -----

func.func @f(%a: memref<?xf16>, %n: i16) {
  // expected-error @+1 {{'csl.mem1d_dsd' op base element type 'f16' does not match the DSD element type 'f32'}}
  %d = csl.mem1d_dsd %a extent %n : memref<?xf16> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<32xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op result must be a mem1d or mem4d DSD, got '!csl.dsd<circbuf, f32>'}}
  %d = csl.tensor_access_dsd %a sizes [4] map affine_map<(i) -> (i)> : memref<32xf32> -> !csl.dsd<circbuf, f32>
  return
}

// -----

func.func @f(%a: memref<4x4xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op a mem1d DSD takes one induction variable, got 2}}
  %d = csl.tensor_access_dsd %a sizes [4, 4] map affine_map<(i, j) -> (i, j)> : memref<4x4xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<2x2x2x2x2xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op a mem4d DSD takes 1 to 4 induction variables, got 5}}
  %d = csl.tensor_access_dsd %a sizes [2, 2, 2, 2, 2] map affine_map<(a, b, c, d, e) -> (a, b, c, d, e)> : memref<2x2x2x2x2xf32> -> !csl.dsd<mem4d, f32>
  return
}

// -----

func.func @f(%a: memref<32xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op size 0 of induction variable 0 is out of range (1..32766)}}
  %d = csl.tensor_access_dsd %a sizes [0] map affine_map<(i) -> (i)> : memref<32xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<32xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op map takes 2 induction variables, but sizes gives 1}}
  %d = csl.tensor_access_dsd %a sizes [4] map affine_map<(i, j) -> (i + j)> : memref<32xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<32xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op map must not use symbols}}
  %d = csl.tensor_access_dsd %a sizes [4] map affine_map<(i)[s] -> (i + s)> : memref<32xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<4x8xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op map gives 1 indices for a rank-2 base}}
  %d = csl.tensor_access_dsd %a sizes [4] map affine_map<(i) -> (i)> : memref<4x8xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%a: memref<32xf32>) {
  // expected-error @+1 {{'csl.tensor_access_dsd' op map must be linear in the induction variables}}
  %d = csl.tensor_access_dsd %a sizes [4] map affine_map<(i) -> (i mod 2)> : memref<32xf32> -> !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%b: memref<16xi16>, %n: i16) {
  // expected-error @+1 {{'csl.circbuf_dsd' op result must be a circbuf DSD, got '!csl.dsd<mem1d, i16>'}}
  %d = csl.circbuf_dsd %b extent %n : memref<16xi16> -> !csl.dsd<mem1d, i16>
  return
}

// -----

func.func @f(%b: memref<4x4xi16>, %n: i16) {
  // expected-error @+1 {{'csl.circbuf_dsd' op a circular buffer is one-dimensional, got 'memref<4x4xi16>'}}
  %d = csl.circbuf_dsd %b extent %n : memref<4x4xi16> -> !csl.dsd<circbuf, i16>
  return
}

// -----

func.func @f(%b: memref<16xi16>, %n: i16) {
  // expected-error @+1 {{'csl.circbuf_dsd' op wraparound 20 exceeds the 16-element buffer}}
  %d = csl.circbuf_dsd %b extent %n wraparound 20 : memref<16xi16> -> !csl.dsd<circbuf, i16>
  return
}

// -----

func.func @f(%b: memref<16xi16>, %n: i16) {
  // expected-error @+1 {{'csl.circbuf_dsd' op wraparound must be positive, got 0}}
  %d = csl.circbuf_dsd %b extent %n wraparound 0 : memref<16xi16> -> !csl.dsd<circbuf, i16>
  return
}

// -----

func.func @f(%b: memref<16xi16>) {
  %n = arith.constant -1 : i16
  // expected-error @+1 {{'csl.circbuf_dsd' op extent 65535 is out of range for a memory DSD (0..32766)}}
  %d = csl.circbuf_dsd %b extent %n : memref<16xi16> -> !csl.dsd<circbuf, i16>
  return
}

// -----

func.func @f(%c: !csl.color, %q: !csl.input_queue) {
  %n = arith.constant -25536 : i16
  // expected-error @+1 {{'csl.fabin_dsd' op extent 40000 is out of range for a fabric DSD (0..32767)}}
  %d = csl.fabin_dsd extent %n color %c queue %q
  return
}

// -----

csl.program @p arch wse2 {
  func.func @f(%c: !csl.color, %q: !csl.input_queue, %n: i16) {
    // expected-error @+1 {{'csl.fabin_dsd' op 'priority' on a fabric DSD is not available on wse2; set it on the DSD operation}}
    %d = csl.fabin_dsd extent %n color %c queue %q priority high
    return
  }
}

// -----

func.func @f(%c: !csl.color, %q: !csl.output_queue) {
  %n = arith.constant -1 : i16
  // expected-error @+1 {{'csl.fabout_dsd' op extent 65535 is out of range for a fabric DSD (0..32767)}}
  %d = csl.fabout_dsd extent %n color %c queue %q
  return
}

// -----

csl.program @p arch wse2 {
  func.func @f(%c: !csl.color, %q: !csl.output_queue, %n: i16) {
    // expected-error @+1 {{'csl.fabout_dsd' op 'priority' on a fabric DSD is not available on wse2; set it on the DSD operation}}
    %d = csl.fabout_dsd extent %n color %c queue %q priority low
    return
  }
}

// -----

func.func @f(%n: i16, %c: !csl.color, %q: !csl.output_queue) {
  // expected-error @+1 {{'csl.fabin_dsd' op operand #2 must be an input queue, but got '!csl.output_queue'}}
  %d = "csl.fabin_dsd"(%n, %c, %q) : (i16, !csl.color, !csl.output_queue) -> !csl.dsd<fabin>
  return
}

// -----

csl.program @p arch wse3 {
  memref.global @buf : memref<8xf32> = uninitialized
  // expected-error @+1 {{'csl.allocate_fifo' op type must be a fifo DSD, got '!csl.dsd<mem1d, f32>'}}
  csl.allocate_fifo @fifo buffer @buf : !csl.dsd<mem1d, f32>
}

// -----

csl.program @p arch wse2 {
  memref.global @buf : memref<8xf32> = uninitialized
  // expected-error @+1 {{'csl.allocate_fifo' op 'priority' on a FIFO is not available on wse2; set it on the DSD operation}}
  csl.allocate_fifo @fifo buffer @buf priority high : !csl.dsd<fifo, f32>
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.allocate_fifo' op 'nobuf' does not name a memref.global}}
  csl.allocate_fifo @fifo buffer @nobuf : !csl.dsd<fifo, f32>
}

// -----

csl.program @p arch wse3 {
  memref.global @buf : memref<4x4xf32> = uninitialized
  // expected-error @+1 {{'csl.allocate_fifo' op FIFO buffer 'buf' must be a one-dimensional array of known size, got 'memref<4x4xf32>'}}
  csl.allocate_fifo @fifo buffer @buf : !csl.dsd<fifo, f32>
}

// -----

csl.program @p arch wse3 {
  memref.global @buf : memref<8xf16> = uninitialized
  // expected-error @+1 {{'csl.allocate_fifo' op a FIFO of 'f32' over 'buf', which holds 'f16'}}
  csl.allocate_fifo @fifo buffer @buf : !csl.dsd<fifo, f32>
}

// -----

csl.program @p arch wse3 {
  memref.global @buf : memref<8xf32> = uninitialized
  // expected-error @+1 {{'csl.allocate_fifo' op 'activate_push' names 'nosuch', which is not a task}}
  csl.allocate_fifo @fifo buffer @buf activate_push @nosuch : !csl.dsd<fifo, f32>
}

// -----

csl.program @p arch wse3 {
  memref.global @buf : memref<8xf32> = uninitialized
  csl.initialize_queue input 2 color 1
  csl.task data @recv(%x: f32) id 2 {
    csl.return
  }
  // expected-error @+1 {{'csl.allocate_fifo' op 'activate_pop' must name a local task, 'recv' is a data task}}
  csl.allocate_fifo @fifo buffer @buf activate_pop @recv : !csl.dsd<fifo, f32>
}

// -----

csl.program @p arch wse3 {
  func.func @f() {
    // expected-error @+1 {{'csl.get_fifo' op 'nofifo' does not name a FIFO}}
    %f = csl.get_fifo @nofifo : !csl.dsd<fifo, f32>
    return
  }
}

// -----

csl.program @p arch wse3 {
  memref.global @buf : memref<8xf32> = uninitialized
  csl.allocate_fifo @fifo buffer @buf : !csl.dsd<fifo, f32>
  func.func @f() {
    // expected-error @+1 {{'csl.get_fifo' op FIFO 'fifo' has type '!csl.dsd<fifo, f32>', not '!csl.dsd<fifo, i32>'}}
    %f = csl.get_fifo @fifo : !csl.dsd<fifo, i32>
    return
  }
}

// -----

func.func @f(%d: !csl.dsd<fabin>, %n: i16) {
  // expected-error @+1 {{'csl.increment_dsd_offset' op needs a memory DSD, got '!csl.dsd<fabin>'}}
  %e = csl.increment_dsd_offset %d by %n of f32 : !csl.dsd<fabin>
  return
}

// -----

func.func @f(%d: !csl.dsd<mem1d, f32>, %n: i16) {
  // expected-error @+1 {{'csl.increment_dsd_offset' op attribute 'elem_type' failed to satisfy constraint: type attribute of 16-bit float or 32-bit float or 16-bit signless integer or 32-bit signless integer}}
  %e = csl.increment_dsd_offset %d by %n of i8 : !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%d: !csl.dsd<fifo, f32>, %p: memref<?xf32>) {
  // expected-error @+1 {{'csl.set_dsd_base_addr' op needs a memory DSD, got '!csl.dsd<fifo, f32>'}}
  %e = csl.set_dsd_base_addr %d, %p : !csl.dsd<fifo, f32>, memref<?xf32>
  return
}

// -----

func.func @f(%d: !csl.dsd<mem1d, f32>, %p: memref<?x!csl.color>) {
  // expected-error @+1 {{'csl.set_dsd_base_addr' op the new base must hold numbers, found '!csl.color'}}
  %e = csl.set_dsd_base_addr %d, %p : !csl.dsd<mem1d, f32>, memref<?x!csl.color>
  return
}

// -----

func.func @f(%d: !csl.dsd<mem4d, f32>, %n: i16) {
  // expected-error @+1 {{'csl.set_dsd_length' op cannot set the length of a mem4d DSD}}
  %e = csl.set_dsd_length %d, %n : !csl.dsd<mem4d, f32>
  return
}

// -----

func.func @f(%d: !csl.dsd<fifo, f32>, %n: i16) {
  // expected-error @+1 {{'csl.set_dsd_length' op cannot set the length of a fifo DSD}}
  %e = csl.set_dsd_length %d, %n : !csl.dsd<fifo, f32>
  return
}

// -----

func.func @f(%d: !csl.dsd<mem1d, f32>) {
  %n = arith.constant 32767 : i16
  // expected-error @+1 {{'csl.set_dsd_length' op length 32767 is out of range for a memory DSD (0..32766)}}
  %e = csl.set_dsd_length %d, %n : !csl.dsd<mem1d, f32>
  return
}

// -----

func.func @f(%d: !csl.dsd<circbuf, f32>, %s: i8) {
  // expected-error @+1 {{'csl.set_dsd_stride' op needs a mem1d DSD, got '!csl.dsd<circbuf, f32>'}}
  %e = csl.set_dsd_stride %d, %s : !csl.dsd<circbuf, f32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'csl.get_dsr' op DSR id must be non-negative, got -1}}
  %r = csl.get_dsr -1 : !csl.dsr<dest>
  return
}

// -----

func.func @f(%r: !csl.dsr<dest>, %d: !csl.dsd<fabin>) {
  // expected-error @+1 {{'csl.load_to_dsr' op a fabin DSD loads only into a source DSR, got '!csl.dsr<dest>'}}
  csl.load_to_dsr %r, %d : !csl.dsr<dest>, !csl.dsd<fabin>
  return
}

// -----

func.func @f(%r: !csl.dsr<src1>, %d: !csl.dsd<fabout>) {
  // expected-error @+1 {{'csl.load_to_dsr' op a fabout DSD loads only into a destination DSR, got '!csl.dsr<src1>'}}
  csl.load_to_dsr %r, %d : !csl.dsr<src1>, !csl.dsd<fabout>
  return
}

// -----

func.func @f(%r: !csl.dsr<dest>, %d: !csl.dsd<fabout>, %t: !csl.task_id<local>) {
  // expected-error @+1 {{'csl.load_to_dsr' op 'activate' applies only to 'async' operations}}
  csl.load_to_dsr %r, %d activate %t : !csl.dsr<dest>, !csl.dsd<fabout>
  return
}
