// RUN: tessera-opt %s -split-input-file -verify-diagnostics
// Hardware IDs against the architecture of the enclosing program, and the
// builtins that exist on one architecture only.

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.get_color' op color 24 is out of range for wse3 (0..23)}}
  %c = csl.get_color 24 : !csl.color
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.get_input_queue' op input queue 8 is out of range for wse2 (0..7)}}
  %q = csl.get_input_queue 8 : !csl.input_queue
}

// -----

// expected-error @+1 {{'csl.get_input_queue' op input queue id must be non-negative, got -1}}
%q = csl.get_input_queue -1 : !csl.input_queue

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.get_output_queue' op output queue 9 is out of range for wse3 (0..7)}}
  %q = csl.get_output_queue 9 : !csl.output_queue
}

// -----

// expected-error @+1 {{'csl.get_output_queue' op output queue id must be non-negative, got -2}}
%q = csl.get_output_queue -2 : !csl.output_queue

// -----

// On WSE-3 local task IDs start above the eight input queues.
csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.get_task_id' op local task ID 5 is out of range for wse3 (8..30)}}
  %t = csl.get_task_id 5 : !csl.task_id<local>
}

// -----

// On WSE-2 a data task ID is a routable color.
csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.get_task_id' op data task ID 24 is out of range for wse2 (0..23)}}
  %t = csl.get_task_id 24 : !csl.task_id<data>
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.get_task_id' op control task ID 64 is out of range for wse2 (0..63)}}
  %t = csl.get_task_id 64 : !csl.task_id<control>
}

// -----

// expected-error @+1 {{'csl.get_task_id' op local task ID id must be non-negative, got -1}}
%t = csl.get_task_id -1 : !csl.task_id<local>

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.get_ut_id' op microthread IDs are not available on wse2}}
  %ut = csl.get_ut_id 0 : !csl.ut_id
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.get_ut_id' op microthread 8 is out of range for wse3 (0..7)}}
  %ut = csl.get_ut_id 8 : !csl.ut_id
}

// -----

// expected-error @+1 {{'csl.get_ut_id' op microthread id must be non-negative, got -1}}
%ut = csl.get_ut_id -1 : !csl.ut_id

// -----

csl.program @p arch wse3 {
  csl.task local @main() {
    // expected-error @+1 {{'csl.task_id_of' op 'nosuch' does not name a task}}
    %t = csl.task_id_of @nosuch : !csl.task_id<local>
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  csl.initialize_queue input 2 color 1
  csl.task data @recv(%x: i16) id 2 {
    // expected-error @+1 {{'csl.task_id_of' op 'recv' is a data task, but the result is '!csl.task_id<local>'}}
    %t = csl.task_id_of @recv : !csl.task_id<local>
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  %c = csl.get_color 1 : !csl.color
  // expected-error @+1 {{'csl.block' op cannot block a color on wse3}}
  csl.block %c : !csl.color
}

// -----

csl.program @p arch wse2 {
  func.func @f() {
    %q = csl.get_input_queue 1 : !csl.input_queue
    // expected-error @+1 {{'csl.unblock' op cannot unblock an input queue on wse2}}
    csl.unblock %q : !csl.input_queue
    return
  }
}

// -----

csl.program @p arch wse2 {
  %q = csl.get_output_queue 1 : !csl.output_queue
  // expected-error @+1 {{'csl.block' op cannot block an output queue on wse2}}
  csl.block %q : !csl.output_queue
}

// -----

// A microthread ID can reach WSE-2 code only as an argument.
csl.program @p arch wse2 {
  func.func @f(%ut: !csl.ut_id) {
    // expected-error @+1 {{'csl.unblock' op cannot unblock a microthread on wse2}}
    csl.unblock %ut : !csl.ut_id
    return
  }
}

// -----

func.func @f(%x: i16) {
  // expected-error @+1 {{'csl.block' op operand #0 must be a task ID, color, queue or microthread ID, but got 'i16'}}
  csl.block %x : i16
  return
}

// -----

csl.program @p arch wse2 {
  func.func @f() {
    %q = csl.get_input_queue 1 : !csl.input_queue
    // expected-error @+1 {{'csl.queue_flush' op is not available on wse2}}
    csl.queue_flush %q : !csl.input_queue
    return
  }
}

// -----

func.func @f(%t: !csl.task_id<data>) {
  // expected-error @+1 {{'csl.activate' op operand #0 must be !csl.task_id<local>, but got '!csl.task_id<data>'}}
  "csl.activate"(%t) : (!csl.task_id<data>) -> ()
  return
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.initialize_queue' op input queue 8 is out of range for wse3 (0..7)}}
  csl.initialize_queue input 8 color 1
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.initialize_queue' op output queue 8 is out of range for wse3 (0..7)}}
  csl.initialize_queue output 8 color 1
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.initialize_queue' op color 24 is out of range for wse3 (0..23)}}
  csl.initialize_queue input 2 color 24
}

// -----

// expected-error @+1 {{'csl.initialize_queue' op expects parent op 'csl.program'}}
csl.initialize_queue input 2 color 1

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{custom op 'csl.initialize_queue' expected one of [input, output] for the direction of a queue, got: inbound}}
  csl.initialize_queue inbound 2 color 1
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.set_teardown_handler' op color 30 is out of range for wse2 (0..23)}}
  csl.set_teardown_handler @h color 30
  func.func @h() {
    return
  }
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.set_teardown_handler' op 'h' does not name a function}}
  csl.set_teardown_handler @h color 3
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.set_teardown_handler' op teardown handler 'h' must take no arguments and return nothing}}
  csl.set_teardown_handler @h color 3
  func.func @h(%x: i16) {
    return
  }
}
