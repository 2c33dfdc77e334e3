#!/usr/bin/env python3
"""Writes a large synthetic CSL file for the parse benchmark.

The text mixes the constructs real PE programs use (params, DSDs with tensor
access, struct literals, tasks, loops, switch, comptime and layout blocks)
with ordinary comment density. Deterministic for a given seed.

usage: gen_csl.py OUTPUT [SIZE_MB] [SEED]
"""
import random
import sys


def unit(r, k):
    n = f"{k}"
    size = r.choice(["N", "M", "16", "size"])
    return f"""// Unit {n}: a block of PE code with its own names.
param width_{n}: u16;
param color_{n}: color = @get_color({r.randint(0, 23)});
const size_{n}: u16 = width_{n} * {r.randint(1, 9)} + 0x{r.randint(0, 4095):x};
var buf_{n} = @zeros([{size}]f32);
var ptr_{n}: [*]f32 = &buf_{n};
const dsd_{n} = @get_dsd(mem1d_dsd, .{{ .tensor_access = |i|{{{size}}} -> buf_{n}[i * 2 + 1] }});
const mat_{n} = |i, j|{{M, N}} -> A_{n}[i * N + j];
const route_{n} = .{{ .rx = .{{ WEST, RAMP }}, .tx = .{{ EAST }}, .teardown = {r.choice(["true", "false"])} }};
const table_{n} = [4]u16{{ {r.randint(0, 9)}, {r.randint(0, 99)}, 0b1010, 'c' }};

fn compute_{n}(a: [*]f32, n: u16, scale: f32) f32 {{
  var sum: f32 = 0.0;
  var i: u16 = 0;
  while (i < n) : (i += 1) {{
    sum += a[i] * scale - {r.random():.3f};
    if (sum > 1.0e3 and i % 2 == 0) {{
      sum = sum / 2.0;
    }} else if (sum < -1.0) sum = 0.0;
  }}
  for (@range(u16, n)) |j| {{
    a[j] = @as(f32, j) + (a[j] << 1 | 3) & 0xff;
  }}
  return if (n > {r.randint(1, 50)}) sum else -sum;
}}

task recv_{n}(wavelet: u32) void {{
  switch (state_{n}) {{
    0 => {{
      @fmovs(dsd_{n}, in_dsd_{n}, .{{ .async = true, .activate = next_{n} }});
      state_{n} += 1;
    }},
    1, 2 => @activate(done_id_{n}),
    else => return,
  }}
}}

comptime {{
  @bind_data_task(recv_{n}, @get_data_task_id(color_{n}));
  @export_symbol(ptr_{n}, "buf_{n}");
}}

"""


def main():
    out = sys.argv[1]
    size = int(float(sys.argv[2] if len(sys.argv) > 2 else 10) * 1_000_000)
    r = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    parts, total, k = [], 0, 0
    while total < size:
        text = unit(r, k)
        parts.append(text)
        total += len(text)
        k += 1
    parts.append("layout {\n  @set_rectangle(4, 4);\n}\n")
    with open(out, "w") as f:
        f.write("".join(parts))


if __name__ == "__main__":
    main()
