// charts.js: plots drawn as SVG with axes, ticks, axis labels (with units), a legend and a
// tooltip; the kinds: "lines" (bands where given), "stacked" and grouped "bars", "points" with
// error bars.
const PALETTE = ["#2f5fb3", "#d9822b", "#7b5ea7", "#b8443c", "#2a9d8f", "#8c6d31"];
const JUDGEMENT_COLOURS = { sound: "#3a9a52", lucky: "#e0b33a", wrong: "#c8453b",
  unjudged: "#9aa1ad" };

function niceStep(span, count) {
  const raw = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function ticks(top, count) {
  const step = niceStep(top || 1, count);
  const out = [];
  for (let v = 0; v <= top + step * 0.001; v += step) out.push(Number(v.toPrecision(12)));
  if (out[out.length - 1] < top) out.push(Number((out[out.length - 1] + step).toPrecision(12)));
  return out;
}

const tooltip = el("div", { class: "tooltip", role: "status", hidden: "" });
document.body.append(tooltip);

function showTip(event, lines) {
  tooltip.replaceChildren(...lines.map((line) => el("div", {}, line)));
  tooltip.hidden = false;
  const x = Math.min(event.clientX + 14, window.innerWidth - tooltip.offsetWidth - 8);
  tooltip.style.left = `${x + window.scrollX}px`;
  tooltip.style.top = `${event.clientY + 14 + window.scrollY}px`;
}

function hideTip() {
  tooltip.hidden = true;
}

function seriesColour(chart, series, index) {
  if (chart.kind === "stacked" && JUDGEMENT_COLOURS[series.name]) {
    return JUDGEMENT_COLOURS[series.name];
  }
  if (series.dashed) return "#3a9a52";
  return PALETTE[index % PALETTE.length];
}

function chart(spec) {
  const W = 560, H = 280, left = 58, right = 14, top = 14, bottom = 48;
  const plotW = W - left - right, plotH = H - top - bottom;
  const n = spec.x.length;
  const values = [];
  if (spec.kind === "stacked") {
    for (let i = 0; i < n; i++) values.push(spec.series.reduce((s, se) => s + (se.y[i] || 0), 0));
  } else {
    for (const se of spec.series) {
      for (const list of [se.y, se.high || []]) list.forEach((v) => { if (v !== null) values.push(v); });
    }
  }
  const yTicks = ticks(Math.max(0, ...values), 5);
  const yTop = yTicks[yTicks.length - 1] || 1;
  const y = (v) => top + plotH - (v / yTop) * plotH;
  const band = plotW / Math.max(n, 1);
  const xAt = spec.kind === "lines"
    ? (i) => left + (n > 1 ? (i / (n - 1)) * plotW : plotW / 2)
    : (i) => left + band * (i + 0.5);
  const root = svgEl("svg", { class: `chart chart-${spec.kind}`, "data-chart": spec.id,
    viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": spec.title });
  const grid = svgEl("g", { class: "axis y-axis" });
  for (const t of yTicks) {
    grid.append(svgEl("line", { x1: left, x2: left + plotW, y1: y(t), y2: y(t), class: "gridline" }),
      svgEl("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, fmtNumber(t)));
  }
  const xAxis = svgEl("g", { class: "axis x-axis" },
    svgEl("line", { x1: left, x2: left + plotW, y1: top + plotH, y2: top + plotH, class: "baseline" }));
  const every = Math.max(1, Math.ceil(n / 14));
  spec.x.forEach((label, i) => {
    if (i % every !== 0 && i !== n - 1) return;
    xAxis.append(svgEl("line", { x1: xAt(i), x2: xAt(i), y1: top + plotH, y2: top + plotH + 4,
      class: "tickmark" }),
    svgEl("text", { x: xAt(i), y: top + plotH + 17, "text-anchor": "middle", class: "tick" }, label));
  });
  root.append(grid, xAxis,
    svgEl("text", { x: left + plotW / 2, y: H - 8, "text-anchor": "middle", class: "axis-label" },
      spec.x_label),
    svgEl("text", { x: 14, y: top + plotH / 2, "text-anchor": "middle", class: "axis-label",
      transform: `rotate(-90 14 ${top + plotH / 2})` }, spec.y_label));
  const marks = svgEl("g", { class: "marks" });
  root.append(marks);
  const colours = spec.series.map((se, i) => seriesColour(spec, se, i));

  if (spec.kind === "lines") {
    spec.series.forEach((se, s) => {
      const pts = se.y.map((v, i) => [i, v]).filter(([, v]) => v !== null);
      if (se.low && se.high) {
        const upper = se.high.map((v, i) => [i, v]).filter(([, v]) => v !== null);
        const lower = se.low.map((v, i) => [i, v]).filter(([, v]) => v !== null).reverse();
        if (upper.length) {
          marks.append(svgEl("path", { class: "band", fill: colours[s], "fill-opacity": 0.18,
            d: upper.map(([i, v], k) => `${k ? "L" : "M"}${xAt(i)},${y(v)}`).join(" ") + " " +
              lower.map(([i, v]) => `L${xAt(i)},${y(Math.max(0, v))}`).join(" ") + " Z" }));
        }
      }
      marks.append(svgEl("path", { class: se.dashed ? "line ideal" : "line mean", fill: "none",
        stroke: colours[s], "stroke-width": 2, "stroke-dasharray": se.dashed ? "6 4" : null,
        d: pts.map(([i, v], k) => `${k ? "L" : "M"}${xAt(i)},${y(v)}`).join(" ") }));
    });
  } else if (spec.kind === "stacked") {
    for (let i = 0; i < n; i++) {
      let base = 0;
      spec.series.forEach((se, s) => {
        const v = se.y[i] || 0;
        if (v > 0) {
          marks.append(svgEl("rect", { class: "bar", fill: colours[s], x: xAt(i) - band * 0.38,
            width: band * 0.76, y: y(base + v), height: y(base) - y(base + v),
            "data-series": se.name, "data-value": v }));
        }
        base += v;
      });
    }
  } else if (spec.kind === "bars") {
    const k = spec.series.length, w = (band * 0.8) / Math.max(k, 1);
    spec.series.forEach((se, s) => se.y.forEach((v, i) => {
      if (v === null) return;
      marks.append(svgEl("rect", { class: "bar", fill: colours[s], "data-series": se.name,
        "data-value": v, x: xAt(i) - band * 0.4 + s * w, width: Math.max(w - 1, 1), y: y(v),
        height: top + plotH - y(v) }));
    }));
  } else {
    spec.series.forEach((se, s) => se.y.forEach((v, i) => {
      if (v === null) return;
      if (se.low && se.high && se.low[i] !== null && se.high[i] !== null) {
        marks.append(svgEl("line", { class: "errorbar", stroke: colours[s], x1: xAt(i), x2: xAt(i),
          y1: y(Math.max(0, se.low[i])), y2: y(se.high[i]) }));
      }
      marks.append(svgEl("circle", { class: "point", fill: colours[s], cx: xAt(i), cy: y(v), r: 4,
        "data-series": se.name, "data-value": v }));
    }));
  }

  // The tooltip: every series' value at the x under the pointer.
  const hover = svgEl("rect", { x: left, y: top, width: plotW, height: plotH, fill: "transparent",
    class: "hover" });
  const cursor = svgEl("line", { y1: top, y2: top + plotH, class: "cursor", visibility: "hidden" });
  root.append(cursor, hover);
  hover.addEventListener("mousemove", (event) => {
    const box = root.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * W;
    let i = spec.kind === "lines" ? Math.round(((px - left) / plotW) * (n - 1))
      : Math.floor((px - left) / band);
    i = Math.max(0, Math.min(n - 1, i));
    cursor.setAttribute("x1", xAt(i)); cursor.setAttribute("x2", xAt(i));
    cursor.setAttribute("visibility", "visible");
    showTip(event, [`${spec.x_label} ${spec.x[i]}`, ...spec.series.map((se) => {
      const bounds = se.low && se.high && se.low[i] !== null && se.high[i] !== null
        ? ` (95%: ${fmtNumber(se.low[i])} to ${fmtNumber(se.high[i])})` : "";
      return `${se.name}: ${fmtNumber(se.y[i])}${bounds}`;
    })]);
  });
  hover.addEventListener("mouseleave", () => { cursor.setAttribute("visibility", "hidden"); hideTip(); });

  const legend = el("div", { class: "chart-legend" }, spec.series.map((se, s) =>
    el("span", { class: "legend-item", "data-series": se.name },
      el("span", { class: se.dashed ? "swatch dashed" : "swatch", style: `--c:${colours[s]}` }),
      se.name)),
  spec.series.some((se) => se.low) && spec.kind === "lines"
    ? el("span", { class: "legend-item" }, el("span", { class: "swatch band" }), "95% interval")
    : null);
  return el("figure", { class: "chart-box", id: `chart-${spec.id}` },
    el("figcaption", {}, spec.title), legend, root,
    spec.note ? el("div", { class: "muted chart-note" }, spec.note) : null);
}
