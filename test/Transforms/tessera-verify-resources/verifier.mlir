// RUN: tessera-opt %s -tessera-verify-resources=memcpy=true -split-input-file -verify-diagnostics
// Resource errors that the csl dialect's verifiers catch before the pass
// runs; the pass does not repeat them, and they fire in a run of it as in
// any other.

// One task per ID.
csl.program @p arch wse2 {
  // expected-note @+1 {{first bound here}}
  csl.task local @a() id 10 {
    csl.return
  }
  // expected-error @+1 {{'csl.task' op task ID 10 is already bound to 'a'}}
  csl.task data @b(%x: i32) id 10 {
    csl.return
  }
}

// -----

// WSE-3: two data tasks on one input queue are two tasks on one ID.
csl.program @p arch wse3 {
  csl.initialize_queue input 3 color 1
  // expected-note @+1 {{first bound here}}
  csl.task data @a(%x: i32) id 3 {
    csl.return
  }
  // expected-error @+1 {{'csl.task' op task ID 3 is already bound to 'a'}}
  csl.task data @b(%x: f32) id 3 {
    csl.return
  }
}

// -----

// WSE-2: a data task ID must be a routable color.
csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.task' op data task ID 24 is out of range for wse2 (0..23)}}
  csl.task data @recv(%x: f32) id 24 {
    csl.return
  }
}

// -----

// WSE-3: a data task ID must be an input queue.
csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op data task ID 8 is out of range for wse3 (0..7)}}
  csl.task data @recv(%x: f32) id 8 {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op local task ID 7 is out of range for wse3 (8..30)}}
  csl.task local @t() id 7 {
    csl.return
  }
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.task' op control task ID 64 is out of range for wse2 (0..63)}}
  csl.task control @t() id 64 {
    csl.return
  }
}

// -----

// WSE-3: a data task's input queue must be bound to a color.
csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op data task 'recv' is bound to input queue 2, which no csl.initialize_queue binds to a color}}
  csl.task data @recv(%x: f32) id 2 {
    csl.return
  }
}

// -----

// WSE-3: a queue is bound to one color.
csl.program @p arch wse3 {
  // expected-note @+1 {{first bound here}}
  csl.initialize_queue input 4 color 1
  // expected-error @+1 {{'csl.initialize_queue' op input queue 4 is bound twice}}
  csl.initialize_queue input 4 color 2
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.initialize_queue' op input queue 8 is out of range for wse3 (0..7)}}
  csl.initialize_queue input 8 color 1
}

// -----

// Colors of fabric DSDs come from csl.get_color, which checks the range.
csl.program @p arch wse2 {
  func.func @f(%n: i16) {
    // expected-error @+1 {{'csl.get_color' op color 24 is out of range for wse2 (0..23)}}
    %c = csl.get_color 24 : !csl.color
    %q = csl.get_input_queue 1 : !csl.input_queue
    %in = csl.fabin_dsd extent %n color %c queue %q
    return
  }
}

// -----

csl.program @p arch wse2 {
  func.func @f() {
    // expected-error @+1 {{'csl.get_output_queue' op output queue 8 is out of range for wse2 (0..7)}}
    %q = csl.get_output_queue 8 : !csl.output_queue
    return
  }
}

// -----

csl.program @p arch wse3 {
  func.func @f() {
    // expected-error @+1 {{'csl.get_task_id' op local task ID 31 is out of range for wse3 (8..30)}}
    %t = csl.get_task_id 31 : !csl.task_id<local>
    return
  }
}

// -----

// Microthread IDs (ut_id options) come from csl.get_ut_id.
csl.program @p arch wse3 {
  func.func @f(%a: !csl.dsd<mem1d, f32>, %b: !csl.dsd<mem1d, f32>) {
    // expected-error @+1 {{'csl.get_ut_id' op microthread 8 is out of range for wse3 (0..7)}}
    %ut = csl.get_ut_id 8 : !csl.ut_id
    csl.fmovs %a, %b async ut_id %ut : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>
    return
  }
}

// -----

csl.program @p arch wse2 {
  func.func @f() {
    // expected-error @+1 {{'csl.get_ut_id' op microthread IDs are not available on wse2}}
    %ut = csl.get_ut_id 0 : !csl.ut_id
    return
  }
}

// -----

// DSR IDs are never negative; their upper bound is the pass's check.
csl.program @p arch wse2 {
  func.func @f() {
    // expected-error @+1 {{'csl.get_dsr' op DSR id must be non-negative, got -1}}
    %r = csl.get_dsr -1 : !csl.dsr<dest>
    return
  }
}
