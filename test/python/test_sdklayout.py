"""SdkLayout end to end: regions, colors, paints, ports, connections, host
streams and symbols compiled by cslc and run on the emulator, checked with
numpy; and the errors of the API, each by its exact message
(docs/SdkLayout.md)."""

import json
import os
import tempfile
import unittest

import numpy as np

from cerebras.geometry.geometry import IntRectangle, IntVector
from cerebras.sdk.runtime.sdkruntimepybind import (
    Color, Edge, Route, RoutingPosition, SdkLayout, SdkLayoutError,
    SdkRuntime, SdkTarget, SimfabConfig, get_edge_routing, get_platform)

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sdklayout")


def kernel(name):
    return os.path.join(HERE, name)


def new_layout(arch=SdkTarget.WSE3):
    platform = get_platform(None, SimfabConfig(dump_core=True), arch)
    return SdkLayout(platform), platform


def add_stage(layout, name, k, size):
    region = layout.create_code_region(kernel("addk.csl"), name, 1, 1)
    rx, tx = region.color("rx"), region.color("tx")
    region.set_param_all("n", size)
    region.set_param_all("k", k)
    region.set_param_all(rx)
    region.set_param_all(tx)
    into = region.create_input_port(
        rx, Edge.LEFT, [RoutingPosition().set_output([Route.RAMP])], size)
    out = region.create_output_port(
        tx, Edge.RIGHT, [RoutingPosition().set_input([Route.RAMP])], size)
    return region, into, out


class PipelineTest(unittest.TestCase):
    """host -> +3 -> +40 -> host, one stage placed by hand and one by the
    compiler, through two streams and a connection."""

    def run_pipeline(self, arch):
        size = 6
        layout, platform = new_layout(arch)
        first, first_in, first_out = add_stage(layout, "first", 3, size)
        first.place(4, 3)
        second, second_in, second_out = add_stage(layout, "second", 40, size)
        layout.connect(first_out, second_in)
        stream_in = layout.create_input_stream(first_in)
        stream_out = layout.create_output_stream(second_out)
        with tempfile.TemporaryDirectory() as tmp:
            artifacts = layout.compile(out_prefix=os.path.join(tmp, "out"))
            # The unplaced stage goes beside the stage it connects to (one
            # hop; north comes first among equals).
            self.assertEqual(second.position, (4, 2))
            with open(os.path.join(artifacts, "out.json")) as f:
                out = json.load(f)
            self.assertEqual([s["direction"] for s in out["host_streams"]],
                             ["in", "out"])
            with open(os.path.join(artifacts, "placement.json")) as f:
                self.assertEqual(json.load(f), [
                    {"name": "first", "origin": [4, 3], "placed_by": "layout",
                     "size": [1, 1]},
                    {"name": "second", "origin": [4, 2],
                     "placed_by": "compiler", "size": [1, 1]}])
            with open(os.path.join(artifacts, "colors.json")) as f:
                colors = json.load(f)
            # Connected ports share a color: three colors, not four.
            self.assertEqual(sorted(colors),
                             ["first.rx", "first.tx", "second.tx"])
            runtime = SdkRuntime(artifacts, platform, memcpy_required=False)
            runtime.load()
            runtime.run()
            data = np.arange(100, 100 + size, dtype=np.uint32)
            result = np.zeros(size, dtype=np.uint32)
            runtime.send(stream_in, data, nonblock=True)
            runtime.receive(stream_out, result, size, nonblock=True)
            runtime.stop()
        np.testing.assert_array_equal(result, data + 43)

    def test_wse3(self):
        self.run_pipeline(SdkTarget.WSE3)

    def test_wse2(self):
        self.run_pipeline(SdkTarget.WSE2)


class PaintTest(unittest.TestCase):
    def test_painted_column(self):
        # A 1x3 column: the top PE sends south, the middle one takes the
        # words and passes them on, the bottom one takes them.
        layout, platform = new_layout()
        column = layout.create_code_region(kernel("column.csl"), "col", 1, 3)
        c = Color("c")
        column.set_param_all("n", 4)
        column.set_param_all("top", 0)
        column.set_param(IntVector(0, 0), "top", 1)
        column.set_param_all(c)
        through = RoutingPosition().set_input([Route.NORTH]).set_output(
            [Route.RAMP, Route.SOUTH])
        last = RoutingPosition().set_input([Route.NORTH]).set_output(
            [Route.RAMP])
        column.paint(IntVector(0, 0), c, [RoutingPosition().set_input(
            [Route.RAMP]).set_output([Route.SOUTH])])
        column.paint_range(IntRectangle(IntVector(0, 1), IntVector(1, 2)), c,
                           [through])
        column.paint(IntVector(0, 2), c, [last])
        with tempfile.TemporaryDirectory() as tmp:
            artifacts = layout.compile(out_prefix=os.path.join(tmp, "out"))
            with open(os.path.join(artifacts, "sdklayout.csl")) as f:
                text = f.read()
            self.assertIn("@set_color_config(0, 1, color_0, .{ .routes = "
                          ".{ .rx = .{NORTH}, .tx = .{RAMP, SOUTH} } });",
                          text)
            runtime = SdkRuntime(artifacts, platform, memcpy_required=False)
            runtime.load()
            runtime.run()
            runtime.stop()
            expected = np.array([7, 8, 9, 10], dtype=np.uint16)
            for y in (1, 2):
                np.testing.assert_array_equal(
                    runtime.read_symbol(0, y, "got", dtype="uint16"),
                    expected)

    def test_paint_all_edge_routing(self):
        # paint_all's edge routing replaces the positions on that edge.
        layout, _ = new_layout()
        column = layout.create_code_region(kernel("column.csl"), "col", 1, 3)
        c = Color("c")
        through = RoutingPosition().set_input([Route.NORTH]).set_output(
            [Route.RAMP, Route.SOUTH])
        last = RoutingPosition().set_input([Route.NORTH]).set_output(
            [Route.RAMP])
        column.paint_all(c, [through], [get_edge_routing(Edge.BOTTOM, [last])])
        self.assertEqual(column.paints[((0, 0), "c")][1], [through])
        self.assertEqual(column.paints[((0, 1), "c")][1], [through])
        self.assertEqual(column.paints[((0, 2), "c")][1], [last])

    def test_switch_positions_become_switches(self):
        layout, _ = new_layout()
        region = layout.create_code_region(kernel("column.csl"), "col", 1, 3)
        c = Color("c")
        region.set_param_all("n", 4)
        region.set_param_all("top", 0)
        region.set_param_all(c)
        pos1 = RoutingPosition().set_input([Route.WEST]).set_output(
            [Route.RAMP])
        pos2 = RoutingPosition().set_input([Route.WEST]).set_output(
            [Route.EAST])
        region.paint(IntVector(0, 1), c, [pos1, pos2])
        with tempfile.TemporaryDirectory() as tmp:
            out_dir = os.path.join(tmp, "out")
            os.makedirs(out_dir)
            region.place(1, 0)
            text = open(layout._write_layout(out_dir)).read()
        self.assertIn("@set_color_config(1, 1, color_0, .{ .routes = .{ .rx "
                      "= .{WEST}, .tx = .{RAMP} }, .switches = .{ .pos1 = .{ "
                      ".tx = EAST } } });", text)


class SymbolTest(unittest.TestCase):
    def test_set_symbol_all_splits_a_matrix(self):
        # A 4x2 matrix (height 2, width 4) over a 2x2 region: each PE gets
        # a 1x2 block.
        layout, platform = new_layout()
        region = layout.create_code_region(kernel("blocks.csl"), "b", 2, 2)
        matrix = np.arange(8, dtype=np.float32).reshape(2, 4) + 0.5
        region.set_symbol_all("blk", matrix, 4, 2)
        region.place(1, 1)
        with tempfile.TemporaryDirectory() as tmp:
            artifacts = layout.compile(out_prefix=os.path.join(tmp, "out"))
            runtime = SdkRuntime(artifacts, platform, memcpy_required=False)
            runtime.load()
            runtime.run()
            runtime.stop()
            for x in range(2):
                for y in range(2):
                    np.testing.assert_array_equal(
                        runtime.read_symbol(1 + x, 1 + y, "blk"),
                        matrix[y, 2 * x:2 * x + 2])


class ErrorTest(unittest.TestCase):
    def check(self, call, message):
        with self.assertRaises(SdkLayoutError) as caught:
            call()
        self.assertEqual(str(caught.exception), message)

    def test_errors(self):
        layout, _ = new_layout()
        region = layout.create_code_region(kernel("addk.csl"), "a", 1, 1)
        self.check(lambda: layout.create_code_region(kernel("addk.csl"), "a",
                                                     1, 1),
                   "create_code_region: a region named 'a' exists already")
        self.check(lambda: layout.create_code_region("nope.csl", "z", 1, 1),
                   "create_code_region: no such file 'nope.csl'")
        self.check(lambda: layout.create_code_region(kernel("addk.csl"), "z",
                                                     0, 1),
                   "create_code_region: region 'z' must have a positive "
                   "size, got 0x1")
        self.check(lambda: region.set_param(IntVector(2, 0), "k", 1),
                   "set_param: PE (2, 0) is outside region 'a' (1x1)")
        self.check(lambda: region.set_param_all("k"),
                   "set_param_all: param 'k' needs a value")
        self.check(lambda: region.set_param_all("k", 1.5),
                   "set_param_all: param 'k' must be an integer or a Color, "
                   "not 1.5")
        c = Color("c")
        self.check(lambda: region.set_param_all(c, 3),
                   "set_param_all: a Color sets its own param; pass no value")
        paint = [RoutingPosition().set_input([Route.RAMP]).set_output(
            [Route.EAST])]
        region.paint(IntVector(0, 0), c, paint)
        self.check(lambda: region.paint(IntVector(0, 0), c, paint),
                   "paint: PE (0, 0) of 'a' is painted with Color('c') twice")
        self.check(lambda: region.create_input_port(
            c, Edge.LEFT, [RoutingPosition().set_input([Route.WEST])], 4),
            "create_input_port: the routing positions of an input port must "
            "leave the input routes to the compiler, got "
            "RoutingPosition(['WEST'] -> [])")
        other = layout.create_code_region(kernel("addk.csl"), "b", 1, 1)
        out = region.create_output_port(c, Edge.RIGHT, [], 4)
        into = other.create_input_port(Color("d"), Edge.LEFT, [], 5)
        self.check(lambda: layout.connect(out, into),
                   "connect: <output port of 'a' on right, Color('c')> "
                   "carries 4 wavelets but <input port of 'b' on left, "
                   "Color('d')> expects 5")
        self.check(lambda: layout.connect(into, out),
                   "connect: the first port must be an output port")
        wide = layout.create_code_region(kernel("addk.csl"), "w", 1, 2)
        wide_port = wide.create_input_port(Color("e"), Edge.LEFT, [], 4)
        self.check(lambda: layout.create_input_stream(wide_port),
                   "create_input_stream: host streams go through a single-PE "
                   "port; <input port of 'w' on left, Color('e')> spans 2 "
                   "PEs")
        region.place(3, 3)
        other.place(3, 3)
        self.check(lambda: layout.compile(out_prefix=tempfile.mkdtemp()),
                   "compile: regions 'a' and 'b' overlap at (3, 3)")
        self.check(lambda: RoutingPosition().set_input(["WEST"]),
                   "RoutingPosition.set_input: expected Route values, not "
                   "'WEST'")
        self.check(lambda: get_platform(None, None, "wse3"),
                   "get_platform: target must be SdkTarget.WSE2 or "
                   "SdkTarget.WSE3, not 'wse3'")

    def test_cslc_errors_reach_the_script(self):
        # Two routes of one color through one router cannot be written:
        # connecting one output port to two inputs that way.
        layout, _ = new_layout()
        a, _, a_out = add_stage(layout, "a", 1, 4)
        b, b_in, _ = add_stage(layout, "b", 1, 4)
        a.place(0, 0)
        b.place(2, 0)
        layout.connect(a_out, b_in)
        c, c_in, _ = add_stage(layout, "c", 1, 4)
        c.place(4, 0)
        layout.connect(a_out, c_in)
        with self.assertRaises(SdkLayoutError) as caught:
            layout.compile(out_prefix=tempfile.mkdtemp())
        self.assertIn("error: two routes of color 'a.tx' would cross PE "
                      "(0, 0), whose router holds one configuration per "
                      "color", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
