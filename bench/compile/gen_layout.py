#!/usr/bin/env python3
"""Writes the layout and PE program of the compile benchmark: a WIDTH x
HEIGHT rectangle (750 x 994 by default) run with --memcpy, where every row
is a pipeline: each PE adds its own vector to the one arriving from the west
and sends the sum east with fabric DSDs, and the host reads the last
column's sums. The link from column x to x + 1 uses color 1 + x % 2, so the
programs differ only by column parity and position (first, interior, last):
the 745,500 PEs share a handful of binaries.

usage: gen_layout.py OUTPUT_DIR [WIDTH HEIGHT]
"""
import os
import sys

PE = """\
// One PE of the compile benchmark's row pipelines.
param memcpy_params: comptime_struct;
param first: bool;
param last: bool;
param size: u16;
param recv_id: u16;
param send_id: u16;

const sys = @import_module("<memcpy/memcpy>", memcpy_params);
const recv_color: color = @get_color(recv_id);
const send_color: color = @get_color(send_id);
const done_id: local_task_id = @get_local_task_id(10);

var own = @zeros([size]f32);
var sum = @zeros([size]f32);
var sum_ptr: [*]f32 = &sum;

const own_dsd = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{size} -> own[i] });
const sum_dsd = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{size} -> sum[i] });
const in_dsd = @get_dsd(fabin_dsd, .{ .extent = size, .fabric_color = recv_color,
                                      .input_queue = @get_input_queue(2) });
const out_dsd = @get_dsd(fabout_dsd, .{ .extent = size, .fabric_color = send_color,
                                        .output_queue = @get_output_queue(3) });

fn run() void {
  for (@range(u16, size)) |i| {
    own[i] = @as(f32, i) * 0.5;
  }
  if (first) {
    @fmovs(sum_dsd, own_dsd);
  } else {
    @fadds(sum_dsd, own_dsd, in_dsd);
  }
  if (last) {
    sys.unblock_cmd_stream();
  } else {
    @fmovs(out_dsd, sum_dsd, .{ .async = true, .activate = done_id });
  }
}

task done() void {
  sys.unblock_cmd_stream();
}

comptime {
  @bind_local_task(done, done_id);
  if (@is_arch("wse3")) {
    @initialize_queue(@get_input_queue(2), .{ .color = recv_color });
    @initialize_queue(@get_output_queue(3), .{ .color = send_color });
  }
  @export_symbol(sum_ptr, "sum");
  @export_symbol(run);
}
"""

LAYOUT = """\
// Compile benchmark: {w}x{h} row pipelines.
param size: u16 = 16;
const memcpy = @import_module("<memcpy/get_params>", .{{ .width = {w}, .height = {h} }});

layout {{
  @set_rectangle({w}, {h});
  for (@range(u16, {w})) |x| {{
    for (@range(u16, {h})) |y| {{
      @set_tile_code(x, y, "pe.csl", .{{
        .memcpy_params = memcpy.get_params(x),
        .first = x == 0, .last = x == {w} - 1, .size = size,
        .recv_id = 1 + (x + 1) % 2, .send_id = 1 + x % 2,
      }});
      // The link from x to x + 1 carries color 1 + x % 2.
      if (x < {w} - 1) {{
        @set_color_config(x, y, @get_color(1 + x % 2),
                          .{{ .routes = .{{ .rx = .{{ RAMP }}, .tx = .{{ EAST }} }} }});
      }}
      if (x > 0) {{
        @set_color_config(x, y, @get_color(1 + (x + 1) % 2),
                          .{{ .routes = .{{ .rx = .{{ WEST }}, .tx = .{{ RAMP }} }} }});
      }}
    }}
  }}
  @export_name("sum", [*]f32, true);
  @export_name("run", fn() void);
}}
"""


def main():
    out = sys.argv[1]
    w = int(sys.argv[2]) if len(sys.argv) > 2 else 750
    h = int(sys.argv[3]) if len(sys.argv) > 3 else 994
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "layout.csl"), "w") as f:
        f.write(LAYOUT.format(w=w, h=h))
    with open(os.path.join(out, "pe.csl"), "w") as f:
        f.write(PE)


if __name__ == "__main__":
    main()
