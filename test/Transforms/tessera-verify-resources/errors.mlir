// RUN: tessera-opt %s -tessera-verify-resources -split-input-file -verify-diagnostics
// Every error of tessera-verify-resources that does not depend on memcpy, at
// the operation that binds or uses the resource.

// Each DSR file has 16 registers (docs/ISA.md).
csl.program @p arch wse2 {
  func.func @f() {
    %dest = csl.get_dsr 15 : !csl.dsr<dest>
    // expected-error @+1 {{dest DSR 16 is out of range for wse2 (0..15)}}
    %dest16 = csl.get_dsr 16 : !csl.dsr<dest>
    // expected-error @+1 {{src0 DSR 20 is out of range for wse2 (0..15)}}
    %src0 = csl.get_dsr 20 : !csl.dsr<src0>
    return
  }
  csl.task local @t() id 3 {
    // expected-error @+1 {{src1 DSR 16 is out of range for wse2 (0..15)}}
    %src1 = csl.get_dsr 16 : !csl.dsr<src1>
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{src1 DSR 1000 is out of range for wse3 (0..15)}}
  %src1 = csl.get_dsr 1000 : !csl.dsr<src1>
}

// -----

// A PE has 8 FIFO slots.
csl.program @p arch wse2 {
  memref.global @b : memref<4xf32> = uninitialized
  csl.allocate_fifo @f0 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f1 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f2 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f3 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f4 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f5 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f6 buffer @b : !csl.dsd<fifo, f32>
  csl.allocate_fifo @f7 buffer @b : !csl.dsd<fifo, f32>
  // expected-error @+1 {{FIFO 'f8' exceeds the 8 FIFOs a PE has}}
  csl.allocate_fifo @f8 buffer @b : !csl.dsd<fifo, f32>
  // expected-error @+1 {{FIFO 'f9' exceeds the 8 FIFOs a PE has}}
  csl.allocate_fifo @f9 buffer @b : !csl.dsd<fifo, f32>
}

// -----

// A control wavelet's entry point 31 means "no task".
csl.program @p arch wse2 {
  csl.task control @c30() id 30 {
    csl.return
  }
  // expected-error @+1 {{task ID 31 is the null task ID; a control wavelet naming it activates no task}}
  csl.task control @c31(%x: i16) id 31 {
    csl.return
  }
  csl.task control @c32() id 32 {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{task ID 31 is the null task ID; a control wavelet naming it activates no task}}
  csl.task control @c() id 31 {
    csl.return
  }
}

// -----

// The CE hands a color's wavelets to one input queue.
csl.program @p arch wse3 {
  // expected-note @+1 {{input queue 2 is bound here}}
  csl.initialize_queue input 2 color 5
  // An output queue may carry the color an input queue receives.
  csl.initialize_queue output 2 color 5
  csl.initialize_queue output 3 color 5
  // expected-error @+1 {{input queues 2 and 3 are both bound to color 5}}
  csl.initialize_queue input 3 color 5
  csl.initialize_queue input 4 color 6
}

// -----

csl.program @p arch wse2 {
  // expected-note @+1 {{input queue 1 is bound here}}
  csl.initialize_queue input 1 color 0
  // expected-error @+1 {{input queues 1 and 7 are both bound to color 0}}
  csl.initialize_queue input 7 color 0
}

// -----

// A fabric DSD names a queue and a color; csl.initialize_queue already
// binds the queue to a color, so they must agree.
csl.program @p arch wse3 {
  // expected-note @+1 {{input queue 2 is bound to color 7 here}}
  csl.initialize_queue input 2 color 7
  // expected-note @+1 {{output queue 3 is bound to color 4 here}}
  csl.initialize_queue output 3 color 4
  func.func @f(%n: i16, %run_time_color: !csl.color) {
    %c4 = csl.get_color 4 : !csl.color
    %c5 = csl.get_color 5 : !csl.color
    %c7 = csl.get_color 7 : !csl.color
    %iq2 = csl.get_input_queue 2 : !csl.input_queue
    %oq3 = csl.get_output_queue 3 : !csl.output_queue
    %in_ok = csl.fabin_dsd extent %n color %c7 queue %iq2
    %out_ok = csl.fabout_dsd extent %n color %c4 queue %oq3
    // expected-error @+1 {{fabin DSD reads color 5 from input queue 2, which is bound to color 7}}
    %in = csl.fabin_dsd extent %n color %c5 queue %iq2
    // expected-error @+1 {{fabout DSD sends color 5 through output queue 3, which is bound to color 4}}
    %out = csl.fabout_dsd extent %n color %c5 queue %oq3
    // A run-time color is not checked, nor a queue nothing binds.
    %in_run_time = csl.fabin_dsd extent %n color %run_time_color queue %iq2
    %oq5 = csl.get_output_queue 5 : !csl.output_queue
    %out_free = csl.fabout_dsd extent %n color %c5 queue %oq5
    return
  }
}

// -----

// Fabric DSDs in a DSD global's initializer are checked as well.
csl.program @p arch wse2 {
  // expected-note @+1 {{input queue 1 is bound to color 3 here}}
  csl.initialize_queue input 1 color 3
  csl.dsd_global @in : !csl.dsd<fabin> {
    %n = arith.constant 8 : i16
    %c = csl.get_color 2 : !csl.color
    %q = csl.get_input_queue 1 : !csl.input_queue
    // expected-error @+1 {{fabin DSD reads color 2 from input queue 1, which is bound to color 3}}
    %d = csl.fabin_dsd extent %n color %c queue %q
    csl.yield %d : !csl.dsd<fabin>
  }
}
