//===- ReportPage.cpp - the HTML, CSS and script of the report ------------===//
//
// Kept in one raw string so that the report is a single file. The script
// colours cells from the palette the C++ side computed, so the page and the
// PNG/SVG heat maps agree to the pixel.
//
//===----------------------------------------------------------------------===//

#include "ReportPage.h"

using namespace tessera::viz;

namespace {

constexpr std::string_view Page = R"page(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tessera run report</title>
<style>
body { margin: 0; font: 13px sans-serif; color: #111; background: #fff; }
header { padding: 8px 12px; background: #f2f2f2; border-bottom: 1px solid #ccc; }
header h1 { font-size: 16px; margin: 0 0 4px 0; }
#main { display: flex; align-items: flex-start; }
#fabric-pane { padding: 12px; }
#fabric { display: block; cursor: crosshair; image-rendering: pixelated; }
#legend { display: flex; align-items: center; gap: 6px; margin-top: 8px; }
#details { padding: 12px; min-width: 320px; }
#details table { border-collapse: collapse; margin: 8px 0; }
#details th { text-align: left; font-weight: normal; padding: 2px 12px 2px 0; color: #444; }
#details td { text-align: right; padding: 2px 0; font-family: monospace; }
#prints { font-family: monospace; white-space: pre; }
.note { color: #666; }
</style>
</head>
<body>
<header>
<h1>Tessera run report</h1>
<span id="summary"></span>
<label>Colour by <select id="metric"></select></label>
</header>
<div id="main">
<div id="fabric-pane">
<canvas id="fabric"></canvas>
<div id="legend"><span id="legend-min"></span><canvas id="legend-bar" width="256" height="12"></canvas><span id="legend-max"></span></div>
<p class="note" id="notes"></p>
</div>
<div id="details"><p class="note">Click a PE to see its counters and its tasks over time.</p></div>
</div>
<script type="application/json" id="run-data">@RUN_DATA@</script>
<script>
"use strict";
const run = JSON.parse(document.getElementById("run-data").textContent);
const taskColors = ["#c8553d", "#2f6690", "#3a7d44", "#8e5572",
                    "#d4a017", "#4f9d9d", "#7b6d8d", "#a44a3f"];
const noRecordColor = "#e0e0e0";
const numberFormat = new Intl.NumberFormat("en-US");
const cell = Math.max(1, Math.min(48, Math.floor(Math.min(
    800 / run.width, 600 / run.height))));
const gap = cell >= 8 ? 1 : 0;
// peAt[y * width + x] is the index of the PE's record plus one, or 0.
const peAt = new Int32Array(run.width * run.height);
run.pes.forEach((pe, index) => { peAt[pe[1] * run.width + pe[0]] = index + 1; });
let metric = run.defaultMetric;
let selected = null;

function scaleIndex(value, min, max) {
  if (max <= min || value <= min) return 0;
  if (value >= max) return 255;
  const range = max - min;
  return Math.floor(((value - min) * 255 + Math.floor(range / 2)) / range);
}

function rgbOf(hex) {
  return [1, 3, 5].map(i => parseInt(hex.substr(i, 2), 16));
}

function metricRange() {
  let min = Infinity, max = -Infinity;
  for (const pe of run.pes) {
    const value = pe[3 + metric];
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return run.pes.length ? [min, max] : [0, 0];
}

function drawFabric() {
  const canvas = document.getElementById("fabric");
  canvas.width = run.width * cell;
  canvas.height = run.height * cell;
  const context = canvas.getContext("2d");
  const image = context.createImageData(canvas.width, canvas.height);
  const [min, max] = metricRange();
  const palette = run.palette.map(rgbOf);
  const noRecord = rgbOf(noRecordColor);
  image.data.fill(255);
  for (let y = 0; y < run.height; ++y)
    for (let x = 0; x < run.width; ++x) {
      const index = peAt[y * run.width + x];
      const rgb = index ? palette[scaleIndex(run.pes[index - 1][3 + metric],
                                             min, max)] : noRecord;
      for (let row = 0; row < cell - gap; ++row) {
        let offset = ((y * cell + row) * canvas.width + x * cell) * 4;
        for (let column = 0; column < cell - gap; ++column, offset += 4) {
          image.data[offset] = rgb[0];
          image.data[offset + 1] = rgb[1];
          image.data[offset + 2] = rgb[2];
        }
      }
    }
  context.putImageData(image, 0, 0);
  if (selected) {
    context.strokeStyle = "#000";
    context.lineWidth = 2;
    context.strokeRect(selected[0] * cell - 1, selected[1] * cell - 1,
                       cell + 1, cell + 1);
  }
  document.getElementById("legend-min").textContent = numberFormat.format(min);
  document.getElementById("legend-max").textContent = numberFormat.format(max);
}

function drawLegend() {
  const context = document.getElementById("legend-bar").getContext("2d");
  run.palette.forEach((color, i) => {
    context.fillStyle = color;
    context.fillRect(i, 0, 1, 12);
  });
}

function element(tag, text) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawTimeline(tasks) {
  const rows = [...new Set(tasks.map(task => task[1]))].sort((a, b) => a - b);
  const labelWidth = 120, width = 600, rowHeight = 18;
  const canvas = element("canvas");
  canvas.id = "timeline";
  canvas.width = labelWidth + width + 10;
  canvas.height = rows.length * rowHeight + 24;
  const context = canvas.getContext("2d");
  const span = Math.max(1, run.cycles);
  context.font = "11px sans-serif";
  context.fillStyle = "#111";
  rows.forEach((id, row) => {
    const named = tasks.find(task => task[1] === id);
    const name = run.taskNames[named[2]];
    context.fillText("task " + id + (name ? " " + name : ""), 0,
                     row * rowHeight + 13);
  });
  for (const task of tasks) {
    const row = rows.indexOf(task[1]);
    const x0 = labelWidth + Math.floor(task[3] * width / span);
    const x1 = labelWidth + Math.floor(task[4] * width / span);
    context.fillStyle = taskColors[task[1] % taskColors.length];
    context.fillRect(x0, row * rowHeight + 2, Math.max(1, x1 - x0),
                     rowHeight - 4);
  }
  const axisY = rows.length * rowHeight + 4;
  context.fillStyle = "#111";
  context.fillRect(labelWidth, axisY, width, 1);
  context.fillText("0", labelWidth, axisY + 14);
  const end = numberFormat.format(run.cycles) + " cycles";
  context.fillText(end, labelWidth + width - context.measureText(end).width,
                   axisY + 14);
  return canvas;
}

function showDetails(x, y) {
  selected = [x, y];
  drawFabric();
  const details = document.getElementById("details");
  details.replaceChildren();
  const index = peAt[y * run.width + x];
  const where = "PE (" + x + ", " + y + ")";
  if (!index) {
    details.append(element("h2", where), element("p", "ran no program"));
    return;
  }
  const pe = run.pes[index - 1];
  details.append(element("h2", where + " " + run.programs[pe[2]]));
  const table = element("table");
  table.id = "counters";
  run.metrics.forEach((title, i) => {
    const row = element("tr");
    row.append(element("th", title), element("td", numberFormat.format(pe[3 + i])));
    table.append(row);
  });
  details.append(table);
  const tasks = run.tasks.filter(task => task[0] === index - 1);
  details.append(element("h3", "Tasks (" + tasks.length + ")"));
  if (tasks.length) details.append(drawTimeline(tasks));
  const prints = run.prints.filter(print => print[0] === index - 1);
  if (prints.length) {
    details.append(element("h3", "Printed"));
    details.append(element("div", prints.map(print =>
        "[" + print[1] + "] " + print[2]).join("\n")));
    details.lastChild.id = "prints";
  }
}

function readAddress() {
  const options = new URLSearchParams(location.hash.substring(1));
  const wanted = run.metricKeys.indexOf(options.get("metric"));
  if (wanted >= 0) metric = wanted;
  const pe = (options.get("pe") || "").split(",").map(Number);
  if (pe.length === 2 && pe.every(Number.isInteger) && pe[0] < run.width &&
      pe[1] < run.height)
    return pe;
  return null;
}

function start() {
  document.getElementById("summary").textContent =
      run.arch + ", " + run.width + " x " + run.height + " PEs, " +
      numberFormat.format(run.cycles) + " cycles, " +
      numberFormat.format(run.pes.length) + " PEs with a record. ";
  const select = document.getElementById("metric");
  run.metrics.forEach((title, i) => {
    const option = element("option", title);
    option.value = i;
    select.append(option);
  });
  const pe = readAddress();
  select.value = metric;
  select.addEventListener("change", () => { metric = Number(select.value); drawFabric(); });
  const notes = [];
  if (run.omittedTasks)
    notes.push(numberFormat.format(run.omittedTasks) + " task spans left out");
  if (run.omittedPrints)
    notes.push(numberFormat.format(run.omittedPrints) + " printed lines left out");
  document.getElementById("notes").textContent = notes.join("; ");
  document.getElementById("fabric").addEventListener("click", event => {
    const x = Math.floor(event.offsetX / cell), y = Math.floor(event.offsetY / cell);
    if (x >= 0 && y >= 0 && x < run.width && y < run.height) showDetails(x, y);
  });
  drawLegend();
  drawFabric();
  if (pe) showDetails(pe[0], pe[1]);
}

start();
</script>
</body>
</html>
)page";

} // namespace

std::string_view tessera::viz::getReportPage() { return Page; }
