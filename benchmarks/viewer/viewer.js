"use strict";
// The gumshoe viewer: renders the JSON embedded in this page; no network, no libraries.
(function () {
  const DATA = JSON.parse(document.getElementById("gumshoe-data").textContent);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function table(columns, rows, attrs) {
    return el("table", attrs || {},
      el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, c)))),
      el("tbody", {}, rows));
  }

  const COUNTS = ["stated", "entailed", "contradicted", "undetermined", "unknown",
    "true", "false", "sound", "lucky", "wrong"];

  function summaryTable(record) {
    const rows = record.seats.map((s) => el("tr", { "data-seat": s.seat },
      el("td", {}, `${s.seat} ${s.name}`), el("td", {}, s.agent),
      COUNTS.map((c) => el("td", { "data-count": c }, s[c] === null ? "-" : s[c])),
      el("td", {}, s.recall === null ? "-" : s.recall.toFixed(2))));
    return table(["seat", "agent", ...COUNTS, "recall"], rows, { class: "summary" });
  }

  function toneOf(row) {
    return row.judgement !== "unjudged" ? row.judgement : row.status.toLowerCase();
  }

  function gridTable(grid) {
    const head = el("tr", {}, el("th", {}, ""), grid.columns.map((c) => el("th", {}, c)));
    const body = grid.rows.map((codes, i) => el("tr", {}, el("th", {}, grid.labels[i]),
      Array.from(codes).map((code) => {
        const entry = grid.legend[code];
        return el("td", { class: "tone-" + entry.tone, title: entry.meaning, "data-code": code },
          entry.symbol);
      })));
    return el("table", { class: "grid" }, el("thead", {}, head), el("tbody", {}, body));
  }

  function legend(grid) {
    return el("div", { class: "legend muted" }, Object.values(grid.legend).map((entry) =>
      el("span", { class: "tone-" + entry.tone }, `${entry.symbol || "·"} ${entry.meaning}`)));
  }

  function renderGame(view, host) {
    host.replaceChildren();
    const record = view.record;
    host.append(el("h2", {}, `${view.game} seed ${view.seed}`),
      el("div", { class: "muted" }, `${view.source} · seats: ${view.seats.join(", ")}`));
    if (view.note) host.append(el("p", { class: "muted" }, view.note));
    if (record) host.append(el("h3", {}, "Audit"), summaryTable(record));
    const rowsByLine = new Map();
    (record ? record.rows : []).forEach((row, index) => {
      const line = row.where.line;
      if (!rowsByLine.has(line)) rowsByLine.set(line, []);
      rowsByLine.get(line).push([row, index]);
    });
    const steps = view.steps;
    const range = el("input", { type: "range", min: 0, max: Math.max(steps.length - 1, 0),
      value: 0, class: "step-range", "aria-label": "step" });
    const label = el("span", { class: "step-label" });
    const text = el("div", { class: "step-text" });
    const deductions = el("ul", { class: "deductions" });
    const panels = el("div", { class: "panels" });
    const legendHost = el("div", { class: "legend-host" });
    const detail = el("div", { class: "detail" });
    const prev = el("button", { class: "prev" }, "◀");
    const next = el("button", { class: "next" }, "▶");
    host.append(el("h3", {}, "Steps"), el("div", { class: "scrubber" }, prev, range, next, label),
      text, deductions, legendHost, panels, detail);

    const callsBySeat = new Map();
    const callAt = new Map();
    view.calls.forEach((call, position) => {
      if (!callsBySeat.has(call.seat)) callsBySeat.set(call.seat, []);
      callsBySeat.get(call.seat).push(position);
      callAt.set(`${call.seat}/${call.index ?? position}`, position);
    });
    const callHost = el("div", { class: "call-host" });

    function callLink(position, text) {
      return el("a", { href: "#", class: "call-link", "data-call": view.calls[position].index,
        onclick: (e) => { e.preventDefault(); showCall(position); } }, text);
    }

    // The call at ``position`` in full, with the earlier calls of its exchange (the replies its
    // prompt sends back: re-prompts after a malformed answer, or a revision).
    function showCall(position) {
      const call = view.calls[position];
      const earlier = [];
      for (let at = call; at.follows !== null && at.follows !== undefined;) {
        const found = callAt.get(`${call.seat}/${at.follows}`);
        if (found === undefined) break;
        earlier.unshift(found);
        at = view.calls[found];
      }
      callHost.replaceChildren(el("div", { class: "calls", "data-seat": call.seat,
        "data-call": call.index ?? position },
        el("h4", {}, `LLM call #${call.index ?? position} of seat ${call.seat}`),
        el("div", { class: "muted call-meta" },
          `prompt tokens ${call.prompt_tokens ?? "-"}, completion tokens ` +
          `${call.completion_tokens ?? "-"}, latency ${call.latency_s ?? "-"} s`),
        earlier.length ? el("div", { class: "call-earlier" }, "after re-prompts of: ",
          earlier.map((p) => callLink(p, `#${view.calls[p].index ?? p} `))) : null,
        el("h5", {}, "prompt"), el("pre", { class: "call-prompt" }, call.prompt),
        el("h5", {}, "reply"), el("pre", { class: "call-reply" }, call.reply)));
    }

    function showRow(row, item) {
      deductions.querySelectorAll(".selected").forEach((n) => n.classList.remove("selected"));
      item.classList.add("selected");
      const calls = callsBySeat.get(row.seat) || [];
      const own = row.call === undefined || row.call === null ? undefined
        : callAt.get(`${row.seat}/${row.call}`);
      callHost.replaceChildren();
      detail.replaceChildren(el("div", { class: "row-detail" },
        el("div", {}, `${row.claim}: ${row.status}` +
          (row.correctness ? `, ${row.correctness}` : "") + ` → ${row.judgement}`),
        own !== undefined ? el("div", {}, "stated in ", callLink(own, `LLM call #${row.call}`))
          : null,
        calls.length ? el("div", {}, `LLM calls of seat ${row.seat}: `,
          calls.map((p) => callLink(p, `#${view.calls[p].index ?? p} `))) : null),
        callHost);
      if (own !== undefined) showCall(own);
    }

    function show(index) {
      const step = steps[index];
      range.value = index;
      label.textContent = `step ${index + 1} / ${steps.length} · line ${step.line}`;
      text.textContent = (step.actor === null ? "" : `${view.seats[step.actor]}: `) + step.text;
      deductions.replaceChildren(...(rowsByLine.get(step.line) || []).map(([row]) => {
        const item = el("li", { class: `deduction tone-${toneOf(row)}`, "data-status": row.status,
          "data-judgement": row.judgement },
          `${view.seats[row.seat]} states ${row.claim}: ${row.status}` +
          (row.correctness ? `, ${row.correctness}` : "") + ` → ${row.judgement}`);
        item.addEventListener("click", () => showRow(row, item));
        return item;
      }));
      const latest = new Map();
      for (const panel of view.panels) {
        if (panel.step <= index) latest.set(panel.seat + "/" + panel.title, panel);
      }
      const shown = Array.from(latest.values()).sort((a, b) => a.seat - b.seat);
      const withGrid = shown.find((panel) => panel.grid);
      panels.replaceChildren(...shown.map((panel) =>
        el("div", { class: "panel", "data-seat": panel.seat },
          el("h4", {}, panel.title),
          panel.grid ? gridTable(panel.grid) : null,
          panel.lines.map((line) => el("div", {}, line)))));
      legendHost.replaceChildren(withGrid ? legend(withGrid.grid) : "");
    }

    range.addEventListener("input", () => show(Number(range.value)));
    prev.addEventListener("click", () => show(Math.max(0, Number(range.value) - 1)));
    next.addEventListener("click", () => show(Math.min(steps.length - 1, Number(range.value) + 1)));
    host.tabIndex = 0;
    host.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") next.click();
      if (event.key === "ArrowLeft") prev.click();
    });
    if (steps.length) show(0);
  }

  async function unpack(packed) {
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function histogram(values, bins) {
    const width = 320, height = 90;
    if (!values.length) return el("div", { class: "muted" }, "no values");
    const lo = Math.min(...values), hi = Math.max(...values);
    const size = (hi - lo) / bins || 1;
    const counts = new Array(bins).fill(0);
    values.forEach((v) => { counts[Math.min(bins - 1, Math.floor((v - lo) / size))] += 1; });
    const top = Math.max(...counts);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("width", width); svg.setAttribute("height", height + 16);
    svg.setAttribute("class", "histogram");
    counts.forEach((count, i) => {
      const rect = document.createElementNS(ns, "rect");
      const h = top ? (count / top) * height : 0;
      rect.setAttribute("x", (i * width) / bins); rect.setAttribute("width", width / bins - 2);
      rect.setAttribute("y", height - h); rect.setAttribute("height", h);
      rect.setAttribute("data-count", count);
      svg.append(rect);
    });
    const caption = document.createElementNS(ns, "text");
    caption.setAttribute("x", 0); caption.setAttribute("y", height + 14);
    caption.textContent = `${lo.toFixed(2)} … ${hi.toFixed(2)}`;
    svg.append(caption);
    return svg;
  }

  function curveSvg(curve) {
    const ns = "http://www.w3.org/2000/svg", width = 360, height = 120;
    const all = [...curve.high, ...curve.low, ...(curve.ideal || [])];
    const top = Math.max(1, ...all), n = Math.max(curve.mean.length - 1, 1);
    const x = (i) => (i / n) * width, y = (v) => height - (v / top) * height;
    const path = (values) => values.map((v, i) => `${i ? "L" : "M"}${x(i)},${y(v)}`).join(" ");
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("width", width); svg.setAttribute("height", height + 4);
    svg.setAttribute("class", "curve");
    const band = document.createElementNS(ns, "path");
    band.setAttribute("d", path(curve.high) + " " +
      curve.low.map((v, i) => `L${x(i)},${y(v)}`).reverse().join(" ") + " Z");
    band.setAttribute("fill", "#c9d6f5");
    svg.append(band);
    for (const [values, colour, cls] of [[curve.mean, "#2f4fb0", "mean"],
      [curve.ideal, "#3a9a52", "ideal"]]) {
      if (!values) continue;
      const line = document.createElementNS(ns, "path");
      line.setAttribute("d", path(values)); line.setAttribute("fill", "none");
      line.setAttribute("stroke", colour); line.setAttribute("class", cls);
      svg.append(line);
    }
    return el("div", {}, svg, el("div", { class: "muted" },
      "blue: mean with a 95% band; green: the ideal reasoner's mean"));
  }

  function renderRun(run, host) {
    host.append(el("h2", {}, run.title));
    if (run.summary.length) {
      const columns = Object.keys(run.summary[0]);
      host.append(table(columns, run.summary.map((row) =>
        el("tr", {}, columns.map((c) => el("td", {}, row[c] ?? "-")))), { class: "run-summary" }));
    }
    if (run.agents.length) {
      const columns = Object.keys(run.agents[0]);
      host.append(el("h3", {}, "Per agent"), table(columns, run.agents.map((row) =>
        el("tr", {}, columns.map((c) => el("td", {}, row[c] ?? "-")))), { class: "agents" }));
    }
    for (const curve of run.curves) host.append(el("h3", {}, curve.name), curveSvg(curve));
    for (const [name, values] of Object.entries(run.distributions)) {
      host.append(el("h3", {}, name), histogram(values, 12));
    }
    host.append(el("h3", {}, `Games (${run.games.length})`));
    const list = el("ol", { class: "games" });
    const slot = el("section", { class: "game", id: "game-view" });
    run.games.forEach((game) => {
      const link = el("a", { href: `#${game.id}`, class: "game-link" }, game.title);
      link.addEventListener("click", async () => {
        renderGame(await unpack(game.packed), slot);
        slot.setAttribute("data-game", game.id);
      });
      list.append(el("li", {}, link));
    });
    host.append(list, slot);
  }

  async function start() {
    const main = document.querySelector("main");
    if (DATA.kind === "game") {
      const host = el("section", { class: "game", id: "game-view" });
      main.append(host);
      renderGame(await unpack(DATA.packed), host);
    } else {
      renderRun(DATA.run, main);
    }
    document.body.setAttribute("data-ready", "1");
  }
  start().catch((error) => {
    document.querySelector("main").append(el("pre", { class: "error" }, String(error)));
    document.body.setAttribute("data-ready", "error");
  });
})();
