"""SdkLayout: describe a program as code regions, colors, ports and
connections, and let the compiler place, route and color it.

The layout is written as a layout CSL file that uses Tessera's connection
builtins (`@get_symbolic_color`, `@connect`, `@host_stream`,
docs/Language.md) and compiled with `cslc`, so a Python layout and a
hand-written one go through the same router and color assigner.
docs/SdkLayout.md describes the API and what it writes.
"""

import enum
import json
import os
import shutil
import subprocess

import numpy as np

from tessera import _native


class SdkLayoutError(Exception):
    """A layout that cannot be compiled as described."""


class SdkTarget(enum.Enum):
    WSE2 = "wse2"
    WSE3 = "wse3"


class SimfabConfig:
    """The simulator's options. Tessera's emulator needs none; they are
    accepted so that SDK scripts run unchanged."""

    def __init__(self, dump_core=False, **options):
        self.dump_core = bool(dump_core)
        self.options = dict(options)


class Platform:
    """Where a layout runs: always Tessera's emulator here."""

    def __init__(self, cmaddr, config, target):
        if not isinstance(target, SdkTarget):
            raise SdkLayoutError(
                f"get_platform: target must be SdkTarget.WSE2 or "
                f"SdkTarget.WSE3, not {target!r}")
        self.cmaddr = cmaddr
        self.config = config
        self.target = target

    def __repr__(self):
        return f"Platform({self.target.value}, emulator)"


def get_platform(cmaddr, config, target):
    """The execution platform. `cmaddr` (a real system) is recorded and
    ignored: layouts run on the emulator."""
    return Platform(cmaddr, config, target)


class Route(enum.Enum):
    RAMP = "RAMP"
    NORTH = "NORTH"
    SOUTH = "SOUTH"
    EAST = "EAST"
    WEST = "WEST"


class Edge(enum.Enum):
    LEFT = "left"
    RIGHT = "right"
    TOP = "top"
    BOTTOM = "bottom"


def _routes(routes, what):
    routes = list(routes)
    for route in routes:
        if not isinstance(route, Route):
            raise SdkLayoutError(f"{what}: expected Route values, not "
                                 f"{route!r}")
    if len(set(routes)) != len(routes):
        raise SdkLayoutError(f"{what}: a route is listed twice")
    return routes


class RoutingPosition:
    """One switch position of a router: where a color comes from (input)
    and where it goes (outputs). Either side may be left to the compiler
    at a port."""

    def __init__(self):
        self.inputs = []
        self.outputs = []

    def set_input(self, routes):
        self.inputs = _routes(routes, "RoutingPosition.set_input")
        return self

    def set_output(self, routes):
        self.outputs = _routes(routes, "RoutingPosition.set_output")
        return self

    def __repr__(self):
        return (f"RoutingPosition({[r.value for r in self.inputs]} -> "
                f"{[r.value for r in self.outputs]})")


class EdgeRouting:
    """Positions that replace a paint's on one edge of a region."""

    def __init__(self, edge, positions):
        if not isinstance(edge, Edge):
            raise SdkLayoutError(f"get_edge_routing: expected an Edge, not "
                                 f"{edge!r}")
        self.edge = edge
        self.positions = list(positions)


def get_edge_routing(edge, positions):
    return EdgeRouting(edge, positions)


class Color:
    """A symbolic color: the compiler gives it a physical value. Colors
    connected through ports become one physical color."""

    def __init__(self, name, _param=None):
        if not isinstance(name, str) or not name:
            raise SdkLayoutError("Color: the name must be a non-empty string")
        self.name = name
        # The param a region's set_param_all(color) sets.
        self.param = _param or name

    def __repr__(self):
        return f"Color({self.name!r})"


def _edge_pes(width, height, edge):
    """The PEs along one edge of a width x height region, west to east or
    north to south."""
    if edge == Edge.LEFT:
        return [(0, y) for y in range(height)]
    if edge == Edge.RIGHT:
        return [(width - 1, y) for y in range(height)]
    if edge == Edge.TOP:
        return [(x, 0) for x in range(width)]
    return [(x, height - 1) for x in range(width)]


class Port:
    def __init__(self, region, color, edge, positions, size, is_input,
                 suffix):
        self.region = region
        self.color = color
        self.edge = edge
        self.positions = list(positions)
        self.size = int(size)
        self.is_input = is_input
        self.suffix = suffix

    def pes(self):
        """The port's PEs in region coordinates, in edge order."""
        return _edge_pes(self.region.width, self.region.height, self.edge)

    def __repr__(self):
        kind = "input" if self.is_input else "output"
        return (f"<{kind} port of '{self.region.name}' on {self.edge.value}, "
                f"{self.color!r}>")


class Stream:
    """A host stream; `id` is its index in out.json's host_streams."""

    def __init__(self, stream_id, name, port):
        self.id = stream_id
        self.name = name
        self.port = port

    def __repr__(self):
        return f"Stream({self.id}, {self.name!r})"


def _point(vector, what):
    try:
        return int(vector.x), int(vector.y)
    except AttributeError:
        raise SdkLayoutError(f"{what}: expected an IntVector, not "
                             f"{vector!r}") from None


def _rectangle_pes(rectangle, what):
    """PEs of an IntRectangle: upper-left inclusive, lower-right
    exclusive."""
    try:
        (x0, y0), (x1, y1) = (_point(rectangle.ul, what),
                              _point(rectangle.lr, what))
    except AttributeError:
        raise SdkLayoutError(f"{what}: expected an IntRectangle, not "
                             f"{rectangle!r}") from None
    return [(x, y) for y in range(y0, y1) for x in range(x0, x1)]


class CodeRegion:
    """A width x height rectangle of PEs running one CSL file."""

    def __init__(self, layout, path, name, width, height):
        self.layout = layout
        self.path = path
        self.name = name
        self.width = int(width)
        self.height = int(height)
        self.position = None
        # Per local PE: param name -> value (int or Color).
        self.params = {}
        # (local PE, color name) -> list of RoutingPositions.
        self.paints = {}
        self.colors = {}
        self.symbols = {}

    def __repr__(self):
        return (f"CodeRegion({self.name!r}, {self.width}x{self.height}"
                f"{'' if self.position is None else f' at {self.position}'})")

    def _check_pe(self, pe, what):
        x, y = pe
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise SdkLayoutError(
                f"{what}: PE ({x}, {y}) is outside region '{self.name}' "
                f"({self.width}x{self.height})")
        return pe

    def _all_pes(self):
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def color(self, name):
        """A color scoped to this region: unique across regions, set as
        param `name` by set_param_all(color)."""
        return self.colors.setdefault(
            name, Color(f"{self.name}.{name}", _param=name))

    def _set(self, pes, name_or_color, value, what):
        if isinstance(name_or_color, Color):
            if value is not None:
                raise SdkLayoutError(f"{what}: a Color sets its own param; "
                                     f"pass no value")
            name, value = name_or_color.param, name_or_color
        else:
            name = name_or_color
            if not isinstance(name, str) or not name:
                raise SdkLayoutError(f"{what}: expected a param name or a "
                                     f"Color, not {name!r}")
            if value is None:
                raise SdkLayoutError(f"{what}: param '{name}' needs a value")
        if not isinstance(value, Color):
            if isinstance(value, (bool, np.bool_)):
                value = int(value)
            if not isinstance(value, (int, np.integer)):
                raise SdkLayoutError(
                    f"{what}: param '{name}' must be an integer or a Color, "
                    f"not {value!r}")
            value = int(value)
        for pe in pes:
            self.params.setdefault(pe, {})[name] = value

    def set_param_all(self, name_or_color, value=None):
        self._set(self._all_pes(), name_or_color, value, "set_param_all")

    def set_param(self, coords, name_or_color, value=None):
        pe = self._check_pe(_point(coords, "set_param"), "set_param")
        self._set([pe], name_or_color, value, "set_param")

    def set_param_range(self, rectangle, name_or_color, value=None):
        pes = [self._check_pe(pe, "set_param_range")
               for pe in _rectangle_pes(rectangle, "set_param_range")]
        self._set(pes, name_or_color, value, "set_param_range")

    def _paint(self, pes, color, positions, what):
        if not isinstance(color, Color):
            raise SdkLayoutError(f"{what}: expected a Color, not {color!r}")
        positions = list(positions)
        if not positions or not all(isinstance(p, RoutingPosition)
                                    for p in positions):
            raise SdkLayoutError(f"{what}: expected a non-empty list of "
                                 f"RoutingPositions")
        if len(positions) > 4:
            raise SdkLayoutError(f"{what}: a router holds at most 4 "
                                 f"positions, got {len(positions)}")
        for pe in pes:
            key = (pe, color.name)
            if key in self.paints:
                raise SdkLayoutError(
                    f"{what}: PE {pe} of '{self.name}' is painted with "
                    f"{color!r} twice")
            self.paints[key] = (color, positions)

    def paint(self, coords, color, positions):
        pe = self._check_pe(_point(coords, "paint"), "paint")
        self._paint([pe], color, positions, "paint")

    def paint_range(self, rectangle, color, positions):
        pes = [self._check_pe(pe, "paint_range")
               for pe in _rectangle_pes(rectangle, "paint_range")]
        self._paint(pes, color, positions, "paint_range")

    def paint_all(self, color, positions, edge_routes=()):
        edges = {}
        for routing in edge_routes:
            if not isinstance(routing, EdgeRouting):
                raise SdkLayoutError("paint_all: edge routes come from "
                                     "get_edge_routing")
            edges.setdefault(routing.edge, routing.positions)
        for pe in self._all_pes():
            chosen = positions
            for edge, edge_positions in edges.items():
                if pe in _edge_pes(self.width, self.height, edge):
                    chosen = edge_positions
                    break
            self._paint([pe], color, chosen, "paint_all")

    def _port(self, color, edge, positions, size, is_input, suffix):
        what = "create_input_port" if is_input else "create_output_port"
        if not isinstance(color, Color):
            raise SdkLayoutError(f"{what}: expected a Color, not {color!r}")
        if not isinstance(edge, Edge):
            raise SdkLayoutError(f"{what}: expected an Edge, not {edge!r}")
        # The compiler chooses where the route comes from (an input port)
        # or goes to (an output port).
        side = "input" if is_input else "output"
        for position in positions:
            if position.inputs if is_input else position.outputs:
                raise SdkLayoutError(
                    f"{what}: the routing positions of an {side} port must "
                    f"leave the {side} routes to the compiler, got "
                    f"{position!r}")
        port = Port(self, color, edge, positions, size, is_input, suffix)
        self.layout._ports.append(port)
        return port

    def create_input_port(self, color, edge, positions, size, suffix=""):
        return self._port(color, edge, positions, size, True, suffix)

    def create_output_port(self, color, edge, positions, size, suffix=""):
        return self._port(color, edge, positions, size, False, suffix)

    def set_symbol_all(self, name, array, width=None, height=None):
        """Initial value of symbol `name` on every PE: `array` is a
        height x width matrix (row-major) split into width/region-width
        columns and height/region-height rows per PE; without sizes, every
        PE gets all of `array`."""
        data = np.ascontiguousarray(array).reshape(-1)
        if width is None and height is None:
            for pe in self._all_pes():
                self.symbols[(pe, name)] = data
            return
        width, height = int(width), int(height)
        if width * height != data.size:
            raise SdkLayoutError(
                f"set_symbol_all: '{name}' has {data.size} elements, not "
                f"{height}x{width}")
        if width % self.width or height % self.height:
            raise SdkLayoutError(
                f"set_symbol_all: a {height}x{width} matrix does not split "
                f"evenly over the {self.width}x{self.height} PEs of "
                f"'{self.name}'")
        matrix = data.reshape(height, width)
        bw, bh = width // self.width, height // self.height
        for x, y in self._all_pes():
            block = matrix[y * bh:(y + 1) * bh, x * bw:(x + 1) * bw]
            self.symbols[((x, y), name)] = np.ascontiguousarray(block)

    def place(self, x, y):
        x, y = int(x), int(y)
        if x < 0 or y < 0:
            raise SdkLayoutError(f"place: region '{self.name}' cannot start "
                                 f"at ({x}, {y})")
        self.position = (x, y)


def _find_cslc():
    explicit = os.environ.get("TESSERA_CSLC")
    if explicit:
        return explicit
    # build/python/tessera/sdklayout.py -> build/bin/cslc
    here = os.path.dirname(os.path.abspath(__file__))
    beside = os.path.join(os.path.dirname(os.path.dirname(here)), "bin",
                          "cslc")
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("cslc")
    if not found:
        raise SdkLayoutError("SdkLayout.compile: cannot find cslc (set "
                             "TESSERA_CSLC)")
    return found


class _ColorClasses:
    """Union-find over color names: connected ports share a color."""

    def __init__(self):
        self.parent = {}

    def find(self, name):
        self.parent.setdefault(name, name)
        while self.parent[name] != name:
            self.parent[name] = self.parent[self.parent[name]]
            name = self.parent[name]
        return name

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


_DIRECTION = {Route.RAMP: "RAMP", Route.NORTH: "NORTH", Route.SOUTH: "SOUTH",
              Route.EAST: "EAST", Route.WEST: "WEST"}


def _format_directions(routes):
    return ".{" + ", ".join(_DIRECTION[r] for r in routes) + "}"


def _config(positions, where):
    """@set_color_config's config struct for a list of positions: the
    first is the base route, each other one a switch position that
    changes one side."""
    base = positions[0]
    if not base.inputs or not base.outputs:
        raise SdkLayoutError(f"{where}: a painted position needs both an "
                             f"input and an output, got {base!r}")
    text = (f".routes = .{{ .rx = {_format_directions(base.inputs)}, "
            f".tx = {_format_directions(base.outputs)} }}")
    switches = []
    for index, position in enumerate(positions[1:], start=1):
        rx_same = set(position.inputs) == set(base.inputs)
        tx_same = set(position.outputs) == set(base.outputs)
        if rx_same == tx_same or (not rx_same and len(position.inputs) != 1) \
                or (not tx_same and len(position.outputs) != 1):
            raise SdkLayoutError(
                f"{where}: switch position {index} {position!r} must change "
                f"exactly one side of {base!r} to one route")
        side, route = (("rx", position.inputs[0]) if not rx_same
                       else ("tx", position.outputs[0]))
        switches.append(f".pos{index} = .{{ .{side} = {_DIRECTION[route]} }}")
    if switches:
        text += ", .switches = .{ " + ", ".join(switches) + " }"
    return ".{ " + text + " }"


class SdkLayout:
    def __init__(self, platform):
        if not isinstance(platform, Platform):
            raise SdkLayoutError("SdkLayout: expected the platform from "
                                 "get_platform")
        self.platform = platform
        self._regions = []
        self._ports = []
        self._connections = []
        self._streams = []

    def create_code_region(self, path, name, width, height):
        if any(r.name == name for r in self._regions):
            raise SdkLayoutError(f"create_code_region: a region named "
                                 f"'{name}' exists already")
        if int(width) < 1 or int(height) < 1:
            raise SdkLayoutError(f"create_code_region: region '{name}' must "
                                 f"have a positive size, got {width}x{height}")
        full = os.path.abspath(path)
        if not os.path.isfile(full):
            raise SdkLayoutError(f"create_code_region: no such file "
                                 f"'{path}'")
        region = CodeRegion(self, full, name, width, height)
        self._regions.append(region)
        return region

    def connect(self, out_port, in_port):
        if not isinstance(out_port, Port) or out_port.is_input:
            raise SdkLayoutError("connect: the first port must be an output "
                                 "port")
        if not isinstance(in_port, Port) or not in_port.is_input:
            raise SdkLayoutError("connect: the second port must be an input "
                                 "port")
        if out_port.size != in_port.size:
            raise SdkLayoutError(
                f"connect: {out_port!r} carries {out_port.size} wavelets but "
                f"{in_port!r} expects {in_port.size}")
        if len(out_port.pes()) != len(in_port.pes()):
            raise SdkLayoutError(
                f"connect: {out_port!r} spans {len(out_port.pes())} PEs but "
                f"{in_port!r} spans {len(in_port.pes())}")
        self._connections.append((out_port, in_port))

    def _stream(self, port, is_input):
        what = "create_input_stream" if is_input else "create_output_stream"
        if not isinstance(port, Port) or port.is_input != is_input:
            raise SdkLayoutError(f"{what}: expected an "
                                 f"{'input' if is_input else 'output'} port")
        if len(port.pes()) != 1:
            raise SdkLayoutError(
                f"{what}: host streams go through a single-PE port; "
                f"{port!r} spans {len(port.pes())} PEs")
        stream = Stream(len(self._streams),
                        f"{port.region.name}.{port.color.param}", port)
        self._streams.append(stream)
        return stream

    def create_input_stream(self, port):
        return self._stream(port, True)

    def create_output_stream(self, port):
        return self._stream(port, False)

    def _place(self):
        """Places the regions the script did not place beside what they
        connect to (TesseraPlacement's region placer, docs/Placement.md)."""
        index = {id(region): i for i, region in enumerate(self._regions)}
        connections = []
        for out_port, in_port in self._connections:
            for (fx, fy), (tx, ty) in zip(out_port.pes(), in_port.pes()):
                connections.append((index[id(out_port.region)],
                                    index[id(in_port.region)],
                                    fx, fy, tx, ty, 1))
        # Room for every region side by side beyond the fixed ones.
        width = max([r.position[0] + r.width for r in self._regions
                     if r.position is not None] + [0])
        height = max([r.position[1] + r.height for r in self._regions
                      if r.position is not None] + [0])
        width += sum(r.width for r in self._regions if r.position is None)
        height += sum(r.height for r in self._regions if r.position is None)
        regions = [(r.name, r.width, r.height, r.position)
                   for r in self._regions]
        try:
            origins, _ = _native.place_regions(max(width, 1), max(height, 1),
                                               regions, connections, [])
        except ValueError as error:
            raise SdkLayoutError(f"compile: {error}") from None
        self._placed_by = {r.name: ("layout" if r.position is not None
                                    else "compiler") for r in self._regions}
        for region, origin in zip(self._regions, origins):
            region.position = tuple(origin)

    def _write_layout(self, out_dir):
        self._place()
        classes = _ColorClasses()
        colors = {}
        for region in self._regions:
            for params in region.params.values():
                for value in params.values():
                    if isinstance(value, Color):
                        colors[value.name] = value
            for color, _ in region.paints.values():
                colors[color.name] = color
        for port in self._ports:
            colors[port.color.name] = port.color
        for out_port, in_port in self._connections:
            classes.union(out_port.color.name, in_port.color.name)
        roots = sorted({classes.find(name) for name in colors})
        symbol = {root: f"color_{i}" for i, root in enumerate(roots)}

        def color_ref(color):
            return symbol[classes.find(color.name)]

        width = max(r.position[0] + r.width for r in self._regions) + 1
        height = max(r.position[1] + r.height for r in self._regions) + 1
        lines = ["// Written by Tessera's SdkLayout; compiled with cslc.",
                 "layout {", f"  @set_rectangle({width}, {height});"]
        for root in roots:
            lines.append(f"  const {symbol[root]} = "
                         f"@get_symbolic_color(\"{root}\");")

        painted = set()
        for region in self._regions:
            ox, oy = region.position
            for (x, y) in region._all_pes():
                params = region.params.get((x, y), {})
                fields = []
                for name in sorted(params):
                    value = params[name]
                    text = (color_ref(value) if isinstance(value, Color)
                            else str(value))
                    fields.append(f".{name} = {text}")
                lines.append(
                    f"  @set_tile_code({ox + x}, {oy + y}, "
                    f"\"{region.path}\", .{{ {', '.join(fields)} }});")
            for ((x, y), name), (color, positions) in sorted(
                    region.paints.items()):
                where = (f"paint of {color!r} at PE ({x}, {y}) of "
                         f"'{region.name}'")
                lines.append(
                    f"  @set_color_config({ox + x}, {oy + y}, "
                    f"{color_ref(color)}, {_config(positions, where)});")
                painted.add(((ox + x, oy + y), classes.find(color.name)))

        def port_pe(port, index):
            x, y = port.pes()[index]
            ox, oy = port.region.position
            return ox + x, oy + y

        def check_unpainted(port):
            # Without a paint there, the compiler completes the one
            # position a port may have: RAMP on the port's own side.
            for index in range(len(port.pes())):
                pe = port_pe(port, index)
                if (pe, classes.find(port.color.name)) in painted:
                    continue
                own = [p.outputs if port.is_input else p.inputs
                       for p in port.positions]
                if len(own) > 1 or (own and own[0] != [Route.RAMP]):
                    raise SdkLayoutError(
                        f"compile: {port!r} at PE {pe}: positions other than "
                        f"one {'output' if port.is_input else 'input'} RAMP "
                        f"need a paint of the color there")

        for out_port, in_port in self._connections:
            check_unpainted(out_port)
            check_unpainted(in_port)
            for index in range(len(out_port.pes())):
                (fx, fy), (tx, ty) = (port_pe(out_port, index),
                                      port_pe(in_port, index))
                lines.append(
                    f"  @connect({color_ref(out_port.color)}, "
                    f".{{ .from = .{{ {fx}, {fy} }}, .to = .{{ {tx}, {ty} }} }});")
        for stream in self._streams:
            check_unpainted(stream.port)
            x, y = port_pe(stream.port, 0)
            end = "to" if stream.port.is_input else "from"
            lines.append(
                f"  @host_stream(\"{stream.name}\", .{{ .color = "
                f"{color_ref(stream.port.color)}, .{end} = .{{ {x}, {y} }} }});")
        lines.append("}")
        path = os.path.join(out_dir, "sdklayout.csl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def _write_symbols(self, out_dir):
        arrays = {}
        for region in self._regions:
            ox, oy = region.position
            for ((x, y), name), data in region.symbols.items():
                arrays[f"{ox + x}_{oy + y}_{name}"] = data
        path = os.path.join(out_dir, "sdklayout_symbols.npz")
        if arrays:
            np.savez(path, **arrays)
        elif os.path.exists(path):
            os.remove(path)

    def compile(self, out_prefix="out"):
        """Writes the layout as CSL and compiles it with cslc into the
        directory `out_prefix`; returns that directory's path."""
        if not self._regions:
            raise SdkLayoutError("compile: the layout has no code regions")
        out_dir = os.path.abspath(str(out_prefix))
        os.makedirs(out_dir, exist_ok=True)
        layout_path = self._write_layout(out_dir)
        self._write_symbols(out_dir)
        # Where the regions went, as cslc writes it for layout CSL regions.
        with open(os.path.join(out_dir, "placement.json"), "w") as f:
            json.dump([{"name": r.name, "origin": list(r.position),
                        "placed_by": self._placed_by[r.name],
                        "size": [r.width, r.height]}
                       for r in self._regions], f, indent=2)
            f.write("\n")
        command = [_find_cslc(), layout_path, "-o", out_dir,
                   f"--arch={self.platform.target.value}"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise SdkLayoutError(
                f"compile: cslc failed on {layout_path}:\n{result.stderr}")
        return out_dir
