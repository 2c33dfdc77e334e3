#!/usr/bin/env python3
"""Writes the layout and tile files of the elaboration benchmark.

The layout covers a WIDTH x HEIGHT rectangle. Every PE gets tile code and
two routed colors whose configs repeat in patterns (a west-to-east stream
on color 1, a north-to-south one on color 2 that alternates by column).

  roles   the tile params are the PE's role (interior, edge, corner) and
          column parity: six distinct programs, so placements repeat and
          compress to few fabric.place ranges.
  coords  as roles, plus the PE's own (x, y) as params the program never
          reads: still six programs, as long as elaboration keys instances
          by the params a program can reach.

usage: gen_layout.py OUTPUT_DIR {roles,coords} [WIDTH HEIGHT]
"""
import os
import sys

TILE = """\
// One PE of the elaboration benchmark. Its program reads role and parity;
// px and py are given per PE but never read, so they do not split
// instances (docs/Elaboration.md, "Program params").
param role: u16 = 0;
param parity: u16 = 0;
param px: u16 = 0;
param py: u16 = 0;
const width = @get_rectangle().width;
const weight = role * 3 + parity;
var out: u16 = weight;
comptime { @export_symbol(out); }
"""

LAYOUT = """\
// Elaboration benchmark ({variant}): a {w}x{h} rectangle.
fn role(x: u16, y: u16) u16 {{
  const edge_x = x == 0 or x == {w} - 1;
  const edge_y = y == 0 or y == {h} - 1;
  if (edge_x and edge_y) return 2;
  if (edge_x or edge_y) return 1;
  return 0;
}}

layout {{
  @set_rectangle({w}, {h});
  for (@range(u16, {w})) |x| {{
    for (@range(u16, {h})) |y| {{
      @set_tile_code(x, y, "tile.csl", {params});
      if (x == 0) {{
        @set_color_config(x, y, @get_color(1),
                          .{{ .routes = .{{ .rx = .{{ RAMP }}, .tx = .{{ EAST }} }} }});
      }} else if (x == {w} - 1) {{
        @set_color_config(x, y, @get_color(1),
                          .{{ .routes = .{{ .rx = .{{ WEST }}, .tx = .{{ RAMP }} }} }});
      }} else {{
        @set_color_config(x, y, @get_color(1),
                          .{{ .routes = .{{ .rx = .{{ WEST }}, .tx = .{{ RAMP, EAST }} }} }});
      }}
      if (x % 2 == 0) {{
        @set_color_config(x, y, @get_color(2),
                          .{{ .routes = .{{ .rx = .{{ NORTH }}, .tx = .{{ SOUTH }} }} }});
      }} else {{
        @set_color_config(x, y, @get_color(2),
                          .{{ .routes = .{{ .rx = .{{ NORTH }}, .tx = .{{ RAMP, SOUTH }} }} }});
      }}
    }}
  }}
}}
"""

PARAMS = {
    "roles": ".{ .role = role(x, y), .parity = x % 2 }",
    "coords": (".{ .role = role(x, y), .parity = x % 2, .px = x, "
               ".py = y }"),
}


def main():
    out, variant = sys.argv[1], sys.argv[2]
    w = int(sys.argv[3]) if len(sys.argv) > 3 else 750
    h = int(sys.argv[4]) if len(sys.argv) > 4 else 994
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "tile.csl"), "w") as f:
        f.write(TILE)
    with open(os.path.join(out, "layout.csl"), "w") as f:
        f.write(LAYOUT.format(variant=variant, w=w, h=h,
                              params=PARAMS[variant]))


if __name__ == "__main__":
    main()
