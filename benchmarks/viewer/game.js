// game.js: one game as it is seen: its outcome, the audit, the steps in words, the claims of the
// step with their verdicts (a clicked claim's detail and the LLM call behind it open beside it),
// and every seat's knowledge: grids, cards, tables, the documents being read.
const COUNTS = ["stated", "entailed", "contradicted", "undetermined", "unknown",
  "true", "false", "sound", "lucky", "wrong", "unjudged"];
const STATUS_WORDS = {
  ENTAILED: "entailed by what it knew",
  CONTRADICTED: "contradicted by what it knew",
  UNDETERMINED: "left open by what it knew",
  UNKNOWN: "not decided by the prover",
};
const SUIT_COLOURS = { R: "#e60000", Y: "#e6e600", G: "#02ec00", B: "#0037ff", W: "#d9d9d9" };
const SUIT_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", W: "white" };

function seatName(view, seat) {
  return seat === null || seat === undefined ? "" : (view.seats[seat] || `seat ${seat}`);
}

function outcomeWords(view) {
  const o = view.outcome;
  if (o.status === "unfinished") return "Unfinished: the log stops before the end.";
  if (o.status === "errored") return `Errored: ${o.reason}.`;
  const returns = o.returns.map((r) => fmtNumber(r));
  if (o.winners.length) {
    const who = listing(o.winners.map((s) => seatName(view, s)));
    return `Won by ${who} (${o.reason}).`;
  }
  const same = returns.every((r) => r === returns[0]);
  return `Ended: ${o.reason}; score ${same ? returns[0] : returns.join(", ")}.`;
}

function summaryTable(view) {
  const record = view.record;
  if (record.seats.every((s) => s.stated === 0)) {
    return el("p", { class: "no-claims" },
      "No seat stated a claim in this game: these agents act without stating deductions, so " +
      "there is nothing to audit.");
  }
  const rows = record.seats.map((s) => el("tr", { "data-seat": s.seat },
    el("td", {}, seatName(view, s.seat)),
    COUNTS.map((c) => el("td", { "data-count": c, class: s[c] ? `num tone-${c}` : "num" },
      s[c] === null ? "-" : s[c])),
    el("td", { class: "num" }, s.recall === null ? "-" : fmtPercent(s.recall))));
  return table(["seat", ...COUNTS, "recall"], rows, { class: "summary" });
}

function gridTable(grid) {
  const head = el("tr", {}, el("th", {}, ""), grid.columns.map((c) => el("th", {}, c)));
  const body = grid.rows.map((codes, i) => el("tr", {}, el("th", {}, grid.labels[i]),
    Array.from(codes).map((code) => {
      const entry = grid.legend[code] || { tone: "", meaning: "", symbol: "" };
      return el("td", { class: "tone-" + entry.tone, title: entry.meaning, "data-code": code },
        entry.symbol);
    })));
  return el("table", { class: "grid" }, el("thead", {}, head), el("tbody", {}, body));
}

function gridLegend(grid) {
  return el("div", { class: "legend muted" }, Object.values(grid.legend).map((entry) =>
    el("span", { class: "tone-" + entry.tone }, `${entry.symbol || "·"} ${entry.meaning}`)));
}

function wordsTable(t) {
  return el("table", { class: "words" }, el("caption", {}, t.caption),
    el("thead", {}, el("tr", {}, el("th", {}, ""), t.columns.map((c) => el("th", {}, c)))),
    el("tbody", {}, t.rows.map((row, i) => el("tr", {}, el("th", {}, t.labels[i]),
      row.map((cell) => el("td", { class: cell.tone ? `tone-${cell.tone}` : null,
        title: cell.note || null }, cell.text))))));
}

function cardNode(card) {
  const colour = SUIT_COLOURS[card.suit] || "#cccccc";
  const face = card.face ? card.rank || card.face : "";
  const marks = [];
  if (card.clue_suit) {
    marks.push(el("span", { class: "clue clue-suit", style: `--c:${SUIT_COLOURS[card.clue_suit]}`,
      title: `told: ${SUIT_NAMES[card.clue_suit] || card.clue_suit}` }));
  }
  if (card.clue_rank) {
    marks.push(el("span", { class: "clue clue-rank", title: `told: ${card.clue_rank}` },
      card.clue_rank));
  }
  const title = [card.face, card.note].filter(Boolean).join(": ");
  return el("div", { class: "card-slot", title: title || null },
    el("div", { class: card.face ? "card" : "card empty", "data-face": card.face,
      style: `--c:${colour}` }, el("span", { class: "rank" }, face)),
    el("div", { class: "clues" }, marks),
    card.note ? el("div", { class: "knows" }, card.note) : null);
}

function cardRows(rows) {
  return rows.map((row) => el("div", { class: "card-row" },
    el("div", { class: "muted card-label" }, row.label),
    el("div", { class: "cards" }, row.cards.map(cardNode), row.note
      ? el("span", { class: "muted" }, row.note) : null)));
}

// A line of words; an answer given in words is shown as given, in quotes, the words each slot
// was read from marked by how the answer takes them (the note says which slot and option).
function lineNode(line) {
  const text = line.segments && line.segments.length
    ? el("q", { class: "said" }, line.segments.map((seg) => seg.stance
      ? el("mark", { class: `evidence stance-${seg.stance.replace(" ", "-")}`,
        "data-stance": seg.stance, title: seg.note }, seg.text) : seg.text))
    : line.text;
  return el("div", { class: `line tone-${line.tone}` }, text,
    line.formula ? el("details", { class: "formula" }, el("summary", {}, "formula"),
      el("code", {}, line.formula)) : null);
}

const STANCE_LEGEND = [["asserted", "asserted"], ["hedged", "hedged or listed"],
  ["rejected", "rejected"], ["unclear", "unclear or no answer"]];

function documentNode(doc, reading) {
  const text = el("div", { class: "document-text" }, doc.segments.map((seg) =>
    seg.facts ? el("mark", { class: "fact", title: seg.note, "data-facts": seg.facts }, seg.text)
      : seg.text));
  return el("details", { class: reading ? "document reading" : "document", "data-doc": doc.id,
    open: reading ? "" : null },
  el("summary", {}, reading ? `Being read: ${doc.title}` : doc.title), text);
}

function panelNode(view, panel, acting, withLegend) {
  const docs = panel.documents.map((id) => view.documents.find((d) => d.id === id))
    .filter(Boolean);
  return el("div", { class: acting ? "panel acting" : "panel", "data-seat": panel.seat ?? "table",
    "data-title": panel.title },
  el("h4", {}, panel.title),
  docs.length ? el("div", { class: "documents" },
    docs.map((doc, i) => documentNode(doc, i === docs.length - 1)),
    el("div", { class: "legend muted" }, el("mark", { class: "fact" }, "marked"),
      " sentences carry facts (hover for which)")) : null,
  panel.grid ? gridTable(panel.grid) : null,
  panel.grid && withLegend ? gridLegend(panel.grid) : null,
  panel.table ? wordsTable(panel.table) : null,
  panel.cards.length ? cardRows(panel.cards) : null,
  panel.lines.map(lineNode),
  panel.lines.some((line) => line.segments && line.segments.length)
    ? el("div", { class: "legend muted" }, "words of an answer read as ",
      STANCE_LEGEND.map(([stance, words], i) => [i ? ", " : "",
        el("mark", { class: `evidence stance-${stance}` }, words)]),
      " (hover for the slot and option)") : null);
}

// Render ``view`` into ``host``; returns a stepper {show(i), move(d), index(), count}.
// ``options``: {step: the step shown first, onStep(i): called as the step changes}.
function renderGame(view, host, options) {
  const opts = options || {};
  host.replaceChildren();
  host.classList.add("game");
  const record = view.record;
  host.append(el("h2", {}, view.title),
    el("p", { class: "outcome" }, outcomeWords(view)),
    el("p", { class: "muted" }, `seats: ${view.seats.join(", ")} · log: ${view.source}`));
  if (view.note) host.append(el("p", { class: "muted" }, view.note));
  if (record) host.append(el("h3", {}, "Claims audited"), summaryTable(view));

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
  const prev = el("button", { class: "prev", title: "previous step (←)" }, "◀");
  const next = el("button", { class: "next", title: "next step (→)" }, "▶");
  const list = el("ol", { class: "steps" }, steps.map((step, i) => el("li", {
    "data-step": i, class: step.actor !== null ? "acted" : null,
    onclick: () => show(i) }, step.text)));
  const now = el("div", { class: "step-text" });
  const deductions = el("ul", { class: "deductions" });
  const panels = el("div", { class: "panels" });
  host.append(el("div", { class: "scrubber" }, prev, range, next, label),
    el("div", { class: "layout" },
      el("div", { class: "story" }, list, now, el("h4", { class: "claims-head" }), deductions),
      el("div", { class: "knowledge" }, panels)));

  const callAt = new Map();
  const callsBySeat = new Map();
  view.calls.forEach((call, position) => {
    callAt.set(`${call.seat}/${call.index ?? position}`, position);
    if (!callsBySeat.has(call.seat)) callsBySeat.set(call.seat, []);
    callsBySeat.get(call.seat).push(position);
  });

  function callLink(position, text, host) {
    return el("a", { href: "#", class: "call-link", "data-call": view.calls[position].index ?? position,
      onclick: (e) => { e.preventDefault(); showCall(position, host); } }, text);
  }

  // The call at ``position``: its messages (the last open, the rest folded), its reply, what
  // it cost, and the earlier calls of its exchange (re-prompts or a revision).
  function showCall(position, callHost) {
    const call = view.calls[position];
    const earlier = [];
    for (let at = call; at.follows !== null && at.follows !== undefined;) {
      const found = callAt.get(`${call.seat}/${at.follows}`);
      if (found === undefined || earlier.includes(found)) break;
      earlier.unshift(found);
      at = view.calls[found];
    }
    const cost = [
      call.prompt_tokens !== null ? plural(call.prompt_tokens, "prompt token") : null,
      call.completion_tokens !== null ? plural(call.completion_tokens, "completion token") : null,
      call.latency_s !== null ? `answered in ${fmtSeconds(call.latency_s)}` : null,
    ].filter(Boolean).join(" · ");
    const messages = call.messages.map((m, i) => el("details", { class: "message",
      open: i === call.messages.length - 1 ? "" : null },
    el("summary", {}, `${m.role} message · ${plural(m.content.length, "character")}`),
    el("pre", { class: "call-prompt" }, m.content)));
    callHost.replaceChildren(el("div", { class: "calls", "data-seat": call.seat,
      "data-call": call.index ?? position },
    el("h5", {}, `LLM call #${call.index ?? position} of ${seatName(view, call.seat)}`),
    cost ? el("div", { class: "muted call-meta" }, cost) : null,
    earlier.length ? el("div", { class: "call-earlier" }, "after the earlier answers of ",
      earlier.map((p) => callLink(p, `call #${view.calls[p].index ?? p} `, callHost))) : null,
    messages,
    el("div", { class: "reply-head" }, "reply"),
    el("pre", { class: "call-reply" }, call.reply)));
  }

  function claimDetail(row, index) {
    const words = view.claims[index] || { text: row.claim, formula: null };
    const truth = row.correctness === null ? "the log does not hold the truth"
      : row.correctness === "TRUE" ? "true" : "false";
    const callHost = el("div", { class: "call-host" });
    const own = row.call === undefined || row.call === null ? undefined
      : callAt.get(`${row.seat}/${row.call}`);
    const others = (callsBySeat.get(row.seat) || []).filter((p) => p !== own);
    const unread = (row.detail || {}).outcome === "unsure";
    const node = el("li", { class: "claim-detail row-detail" },
      el("div", {}, unread ? `${seatName(view, row.seat)} answered in words: ${words.text}`
        : `${seatName(view, row.seat)} stated: ${words.text}`),
      el("div", {}, unread ? "No claim was read from its words, so none is judged. " +
        `Judgement: ${row.judgement}.` : `Against what it knew: ` +
        `${STATUS_WORDS[row.status] || row.status}. Against the hidden truth: ${truth}. ` +
        `Judgement: ${row.judgement}.`),
      row.repeat ? el("div", { class: "muted" }, "Stated before: listed, not counted again.")
        : null,
      words.formula ? el("details", { class: "formula" }, el("summary", {}, "formula"),
        el("code", {}, words.formula)) : null,
      own !== undefined ? el("div", { class: "muted" }, "The LLM call it was stated in:") : null,
      callHost,
      others.length ? el("details", { class: "other-calls" },
        el("summary", {}, `${plural(others.length, "other LLM call")} of this seat`),
        others.map((p) => callLink(p, `#${view.calls[p].index ?? p} `, callHost))) : null);
    if (own !== undefined) showCall(own, callHost);
    return node;
  }

  let current = 0;
  function show(index) {
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, index));
    current = index;
    const step = steps[index];
    range.value = index;
    label.textContent = `step ${index + 1} of ${steps.length} · log line ${step.line}`;
    list.querySelectorAll(".current").forEach((n) => n.classList.remove("current"));
    const item = list.children[index];
    item.classList.add("current");
    list.scrollTop = item.offsetTop - list.clientHeight / 2;
    append(now.replaceChildren() || now, [el("div", {}, step.text), step.formula
      ? el("details", { class: "formula" }, el("summary", {}, "formula"),
        el("code", {}, step.formula)) : null]);
    const here = rowsByLine.get(step.line) || [];
    host.querySelector(".claims-head").textContent = here.length
      ? `${plural(here.length, "claim")} stated at this step (click one for its detail)` : "";
    deductions.replaceChildren(...here.map(([row, rowIndex]) => {
      const words = view.claims[rowIndex] || { text: row.claim };
      const li = el("li", { class: `deduction tone-${row.judgement === "unjudged"
        ? row.status.toLowerCase() : row.judgement}`, "data-status": row.status,
      "data-judgement": row.judgement, "data-row": rowIndex, tabindex: 0 },
      `${seatName(view, row.seat)}: ${words.text} `,
      el("span", { class: "badge" }, row.judgement));
      li.addEventListener("click", () => {
        const open = li.nextElementSibling && li.nextElementSibling.classList.contains("claim-detail");
        deductions.querySelectorAll(".claim-detail").forEach((n) => n.remove());
        deductions.querySelectorAll(".selected").forEach((n) => n.classList.remove("selected"));
        if (open) return;
        li.classList.add("selected");
        const detail = claimDetail(row, rowIndex);
        li.after(detail);
        detail.scrollIntoView({ block: "nearest" });
      });
      return li;
    }));
    const latest = new Map();
    for (const panel of view.panels) {
      if (panel.step <= index) latest.set(panel.seat + "/" + panel.title, panel);
    }
    const shown = Array.from(latest.values()).sort((a, b) => (a.seat ?? -1) - (b.seat ?? -1));
    const legendAt = shown.findIndex((panel) => panel.grid);
    panels.replaceChildren(...shown.map((panel, i) => panelNode(view, panel,
      step.actor !== null && panel.seat === step.actor, i === legendAt)));
    if (opts.onStep) opts.onStep(index);
  }

  range.addEventListener("input", () => show(Number(range.value)));
  prev.addEventListener("click", () => show(current - 1));
  next.addEventListener("click", () => show(current + 1));
  const stepper = { show, move: (d) => show(current + d), index: () => current,
    count: steps.length };
  show(Number.isInteger(opts.step) ? opts.step : 0);
  return stepper;
}
