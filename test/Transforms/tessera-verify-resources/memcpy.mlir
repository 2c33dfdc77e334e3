// RUN: tessera-opt %s -tessera-verify-resources=memcpy=true -split-input-file -verify-diagnostics
// RUN: tessera-opt %s -tessera-verify-resources -split-input-file | FileCheck %s --check-prefix=FREE
// With memcpy (cslc --memcpy) the task IDs 27, 28 and 30, colors 21..23 and
// queue 0 (WSE-2) or queues 0 and 1 (WSE-3) belong to the memcpy
// infrastructure (csl-reference.md section 4). Only its own code, the
// symbols MLIRGen prefixes with `memcpy.`, may use them. Without memcpy they
// are ordinary resources.

// FREE: csl.task local @t28() id 28
csl.program @p arch wse2 {
  // expected-error @+1 {{task ID 28 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.task local @t28() id 28 {
    csl.return
  }
  // expected-error @+1 {{task ID 27 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.task control @c27() id 27 {
    csl.return
  }
  csl.task local @t29() id 29 {
    csl.return
  }
  // The memcpy library binds its command stream task to 30.
  csl.task local @memcpy.cmd_stream_task() id 30 {
    %t = csl.get_task_id 30 : !csl.task_id<local>
    csl.block %t : !csl.task_id<local>
    csl.return
  }
}

// -----

// A handle to a reserved ID outside the library, at start-up or at run time.
csl.program @p arch wse3 {
  // expected-error @+1 {{task ID 30 is reserved by the memcpy infrastructure (--memcpy)}}
  %t30 = csl.get_task_id 30 : !csl.task_id<local>
  csl.activate %t30
  func.func @f() {
    // expected-error @+1 {{task ID 27 is reserved by the memcpy infrastructure (--memcpy)}}
    %t27 = csl.get_task_id 27 : !csl.task_id<control>
    csl.unblock %t27 : !csl.task_id<control>
    %t26 = csl.get_task_id 26 : !csl.task_id<local>
    csl.activate %t26
    return
  }
  func.func @memcpy.unblock_cmd_stream() {
    %t = csl.get_task_id 30 : !csl.task_id<local>
    csl.unblock %t : !csl.task_id<local>
    return
  }
}

// -----

// On WSE-2 a data task ID is a color.
csl.program @p arch wse2 {
  // expected-error @+1 {{data task ID 21 is color 21, which is reserved by the memcpy infrastructure (--memcpy)}}
  csl.task data @recv(%x: f32) id 21 {
    csl.return
  }
  csl.task data @ok(%x: f32) id 20 {
    csl.return
  }
  func.func @f() {
    // expected-error @+1 {{data task ID 23 is color 23, which is reserved by the memcpy infrastructure (--memcpy)}}
    %t = csl.get_task_id 23 : !csl.task_id<data>
    csl.block %t : !csl.task_id<data>
    return
  }
}

// -----

// On WSE-3 a data task ID is an input queue.
csl.program @p arch wse3 {
  // expected-error @+1 {{input queue 1 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.initialize_queue input 1 color 4
  csl.initialize_queue input 2 color 5
  // expected-error @+1 {{data task ID 1 is input queue 1, which is reserved by the memcpy infrastructure (--memcpy)}}
  csl.task data @recv(%x: f32) id 1 {
    csl.return
  }
  csl.task data @ok(%x: f32) id 2 {
    csl.return
  }
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{color 21 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.set_teardown_handler @h color 21
  // expected-error @+1 {{color 22 is reserved by the memcpy infrastructure (--memcpy)}}
  %c22 = csl.get_color 22 : !csl.color
  csl.block %c22 : !csl.color
  func.func @h() {
    // expected-error @+1 {{color 23 is reserved by the memcpy infrastructure (--memcpy)}}
    %c23 = csl.get_color 23 : !csl.color
    %c20 = csl.get_color 20 : !csl.color
    return
  }
}

// -----

// WSE-2: input queue 0; output queue 0 stays free (public SDK programs send
// through it with --memcpy).
csl.program @p arch wse2 {
  func.func @f(%n: i16) {
    %c = csl.get_color 3 : !csl.color
    // expected-error @+1 {{input queue 0 is reserved by the memcpy infrastructure (--memcpy)}}
    %iq0 = csl.get_input_queue 0 : !csl.input_queue
    %oq0 = csl.get_output_queue 0 : !csl.output_queue
    %iq1 = csl.get_input_queue 1 : !csl.input_queue
    %oq1 = csl.get_output_queue 1 : !csl.output_queue
    %in = csl.fabin_dsd extent %n color %c queue %iq1
    %out = csl.fabout_dsd extent %n color %c queue %oq1
    return
  }
}

// -----

// WSE-3: queues 0 and 1, also when csl.initialize_queue binds them.
csl.program @p arch wse3 {
  // expected-error @+1 {{input queue 1 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.initialize_queue input 1 color 4
  // expected-error @+1 {{output queue 0 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.initialize_queue output 0 color 5
  // expected-error @+1 {{color 21 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.initialize_queue input 2 color 21
  csl.initialize_queue output 2 color 6
  func.func @f() {
    // expected-error @+1 {{output queue 1 is reserved by the memcpy infrastructure (--memcpy)}}
    %oq1 = csl.get_output_queue 1 : !csl.output_queue
    return
  }
}

// -----

// One error per reservation an op breaks.
csl.program @p arch wse3 {
  // expected-error @+2 {{input queue 0 is reserved by the memcpy infrastructure (--memcpy)}}
  // expected-error @+1 {{color 22 is reserved by the memcpy infrastructure (--memcpy)}}
  csl.initialize_queue input 0 color 22
}
