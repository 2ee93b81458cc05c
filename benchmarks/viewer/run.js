// run.js: a run's page (who won, how well each agent reasoned, the plots, every game opening in
// place), runs compared side by side, and the start of the page with its deep links.

function agentTable(agents, competitive) {
  const columns = [
    { label: "agent", cell: (a) => a.agent, sort: (a) => a.agent },
    { label: "seat-games", cls: "num", cell: (a) => fmtNumber(a.seat_games), sort: (a) => a.seat_games },
    competitive ? { label: "win rate", cls: "num", cell: (a) => fmtShare(a.win_rate),
      sort: (a) => a.win_rate?.value ?? -1 } : null,
    { label: "mean score", cls: "num", cell: (a) => fmtMean(a.score), sort: (a) => a.score.value ?? -1 },
    { label: "claims stated", cls: "num", cell: (a) => fmtNumber(a.stated), sort: (a) => a.stated },
    { label: "sound", cls: "num", cell: (a) => fmtShare(a.sound), sort: (a) => a.sound.value ?? -1 },
    { label: "lucky", cls: "num", cell: (a) => fmtShare(a.lucky), sort: (a) => a.lucky.value ?? -1 },
    { label: "wrong", cls: "num", cell: (a) => fmtShare(a.wrong), sort: (a) => a.wrong.value ?? -1 },
    { label: "unjudged", cls: "num", cell: (a) => fmtNumber(a.unjudged), sort: (a) => a.unjudged },
    { label: "recall", cls: "num", cell: (a) => fmtPercent(a.recall), sort: (a) => a.recall ?? -1 },
    { label: "fallbacks", cls: "num", cell: (a) => fmtNumber(a.fallbacks), sort: (a) => a.fallbacks ?? -1 },
    { label: "tokens", cls: "num", cell: (a) => fmtNumber(a.tokens), sort: (a) => a.tokens ?? -1 },
    { label: "cost", cls: "num", cell: (a) => fmtCost(a.cost), sort: (a) => a.cost ?? -1 },
  ].filter(Boolean);
  const made = sortableTable(columns, agents, { class: "agents" }, (a) => ({ "data-agent": a.agent }));
  const silent = agents.every((a) => a.stated === 0);
  return el("div", {}, made.node, el("p", { class: "muted" },
    silent ? "No agent of this run stated a claim (symbolic agents act without stating " +
      "deductions), so the claim columns are empty. "
      : "Sound, lucky and wrong are shares of the claims stated, pooled over the agent's seats. ",
    "In brackets: 95% intervals (Wilson for shares, Student's t for the mean score). " +
    "Fallbacks, tokens and cost come from the run's summary or its recorded calls; " +
    "- where the agent made no LLM calls."));
}

function outcomeCell(game) {
  const o = game.outcome;
  if (o.status !== "finished") return el("span", { class: "tone-wrong" }, o.status);
  if (o.winners.length) {
    return `won by ${o.winners.map((s) => `P${s} (${game.agents[s]})`).join(", ")}`;
  }
  return o.reason;
}

function scoreText(game) {
  const r = game.outcome.returns.map((v) => fmtNumber(v));
  if (!r.length) return "-";
  return r.every((v) => v === r[0]) ? r[0] : r.join(" · ");
}

function scoreValue(game) {
  const r = game.outcome.returns;
  return r.length ? Math.max(...r) : -Infinity;
}

function gameColumns() {
  return [
    { label: "seed", cls: "num", cell: (g) => g.seed ?? "-", sort: (g) => g.seed ?? -1 },
    { label: "game", cell: (g) => el("a", { href: `#game=${encodeURIComponent(g.id)}`,
      class: "game-link" }, g.id), sort: (g) => g.id },
    { label: "agents", cell: (g) => g.agents.join(", "), sort: (g) => g.agents.join(",") },
    { label: "outcome", cell: outcomeCell, sort: (g) => g.outcome.winners.join(",") + g.outcome.reason },
    { label: "score", cls: "num", cell: scoreText, sort: scoreValue },
    { label: "claims", cls: "num", cell: (g) => fmtNumber(g.stated), sort: (g) => g.stated },
    { label: "wrong", cls: "num", cell: (g) => fmtNumber(g.wrong), sort: (g) => g.wrong },
    { label: "sound", cls: "num", cell: (g) => fmtNumber(g.sound), sort: (g) => g.sound },
  ];
}

// A filter box and a "wrong claims only" switch over a table's rows.
function filterBar(made, text, count) {
  const box = el("input", { type: "search", class: "filter", placeholder: "filter games (any words)",
    "aria-label": "filter games" });
  const wrongOnly = el("input", { type: "checkbox", class: "wrong-only" });
  const shown = el("span", { class: "muted shown-count" });
  function apply() {
    const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    const visible = made.filter((row) => words.every((w) => text(row).toLowerCase().includes(w)) &&
      (!wrongOnly.checked || count(row) > 0));
    shown.textContent = `${fmtNumber(visible)} of ${plural(made.rows.length, "game")} shown`;
  }
  box.addEventListener("input", apply);
  wrongOnly.addEventListener("change", apply);
  apply();
  return el("div", { class: "filter-bar" }, box,
    el("label", {}, wrongOnly, " only games with wrong claims"), shown);
}

function summaryDetails(summary) {
  if (!summary.length) return null;
  const columns = Object.keys(summary[0]);
  const cell = (v) => typeof v === "number" ? fmtNumber(v) : v === null || v === undefined ? "-"
    : typeof v === "boolean" ? (v ? "yes" : "no") : String(v);
  return el("details", { class: "bench-summary" }, el("summary", {}, "The bench's own summary"),
    table(columns.map((c) => c.replace(/_/g, " ")), summary.map((row) =>
      el("tr", {}, columns.map((c) => el("td", {}, cell(row[c]))))), { class: "run-summary" }));
}

// Open a game (or, compared, one game of every run) in a row under ``tr``, closing the one
// open before; ``views`` are the packed views, opened side by side with linked steps.
async function openInPlace(tr, id, packedViews, colspan, step) {
  const tbody = tr.parentNode;
  const wasOpen = tr.nextElementSibling && tr.nextElementSibling.classList.contains("opened-game")
    && tr.nextElementSibling.dataset.game === id;
  tbody.querySelectorAll("tr.opened-game").forEach((n) => n.remove());
  tbody.querySelectorAll("tr.open").forEach((n) => n.classList.remove("open"));
  if (wasOpen && step === undefined) { keyTarget = null; writeHash({}); return; }
  const slot = el("div", { class: packedViews.length > 1 ? "side-by-side" : "single" });
  const holder = el("tr", { class: "opened-game", "data-game": id },
    el("td", { colspan }, slot));
  tr.classList.add("open");
  tr.after(holder);
  const views = await Promise.all(packedViews.map(unpack));
  const steppers = [];
  let moving = false;
  views.forEach((view, i) => {
    const host = el("section", { class: "game", id: i ? `game-view-${i}` : "game-view",
      "data-game": id });
    slot.append(host);
    steppers.push(renderGame(view, host, {
      step: step,
      onStep: (index) => {
        if (!moving) {
          moving = true;
          steppers.forEach((s, j) => { if (j !== i) s.show(index); });
          moving = false;
        }
        writeHash({ game: id, step: index + 1 });
      },
    }));
  });
  keyTarget = { move: (d) => steppers[0].move(d) };
  writeHash({ game: id, step: steppers[0].index() + 1 });
  holder.scrollIntoView({ block: "start" });
}

// The games a table shows a page (the page stays quick to open with thousands of games).
const PAGE = 100;

// What a #game=<id>&step=<n> address opens: ``open(game, tr, step)`` for the game it names,
// its row brought onto the page shown.
function deepLink(byId, made, open) {
  return (params) => {
    const index = byId.get(params.get("game"));
    if (index === undefined) return null;
    return open(made.rows[index], made.reveal(index),
      Math.max(0, (parseInt(params.get("step"), 10) || 1) - 1));
  };
}

function renderRun(run, host) {
  const errored = run.games.filter((g) => g.outcome.status !== "finished").length;
  host.append(el("h2", {}, run.title),
    el("p", {}, `${plural(run.games.length, "game")} of ${run.games_played.join(", ")}` +
      (errored ? `; ${fmtNumber(errored)} did not finish` : "") + "."));
  host.append(el("h3", {}, "Per agent"), agentTable(run.agents, run.competitive));
  if (run.charts.length) {
    host.append(el("h3", {}, "Plots"), el("div", { class: "charts" }, run.charts.map(chart)));
  }
  host.append(el("h3", {}, "Games, in seed order (click one to open it here)"));
  const columns = gameColumns();
  const made = sortableTable(columns, run.games, { class: "games" },
    (g) => ({ "data-game": g.id, class: "game-row" }), { pageSize: PAGE, onRow: (game, tr) =>
      tr.addEventListener("click", (event) => {
        event.preventDefault();
        openInPlace(tr, game.id, [game.packed], columns.length);
      }) });
  const byId = new Map(run.games.map((g, i) => [g.id, i]));
  host.append(filterBar(made, (g) => [g.id, g.agents.join(" "), g.outcome.reason,
    g.outcome.winners.map((s) => `P${s}`).join(" ")].join(" "), (g) => g.wrong), made.node);
  const summary = summaryDetails(run.summary);
  if (summary) host.append(summary);
  return deepLink(byId, made, (game, tr, step) =>
    openInPlace(tr, game.id, [game.packed], columns.length, step));
}

function renderCompare(cmp, host) {
  host.append(el("h2", {}, cmp.title),
    el("p", {}, `${cmp.runs.length} runs compared over the ${plural(cmp.games.length, "game")} ` +
      "they share, seat by seat."));
  cmp.runs.forEach((run, i) => host.append(
    el("h3", { class: "run-title" }, `Run ${i + 1}: ${run.title} (${plural(run.games, "game")})`),
    agentTable(run.agents, cmp.competitive)));
  host.append(el("h3", {}, `Differences from run 1: ${cmp.runs[0].title}`));
  const diffColumns = [
    { label: "run", cell: (d) => `run ${d.run + 1}`, sort: (d) => d.run },
    { label: "seat", cell: (d) => `P${d.seat}: ${d.agents[0]} → ${d.agents[1]}`, sort: (d) => d.seat },
    { label: "games", cls: "num", cell: (d) => fmtNumber(d.games), sort: (d) => d.games },
    cmp.competitive ? { label: "win rate", cls: "num", cell: (d) => fmtDifference(d.win_rate, true),
      sort: (d) => d.win_rate?.value ?? 0 } : null,
    { label: "mean score", cls: "num", cell: (d) => fmtDifference(d.score, false),
      sort: (d) => d.score.value ?? 0 },
    { label: "sound share", cls: "num", cell: (d) => fmtDifference(d.sound, true),
      sort: (d) => d.sound.value ?? 0 },
    { label: "wrong share", cls: "num", cell: (d) => fmtDifference(d.wrong, true),
      sort: (d) => d.wrong.value ?? 0 },
  ].filter(Boolean);
  host.append(sortableTable(diffColumns, cmp.differences, { class: "differences" }).node,
    el("p", { class: "muted" }, "Each figure is the later run's less the first run's, with " +
      "its 95% interval: win rate and mean score paired over the shared games (Student's t), " +
      "the shares of stated claims by Newcombe's interval. Points are percentage points."));
  host.append(el("h3", {}, "Shared games, where the runs differ most first (click one to open " +
    "every run's log of it at the same step)"));
  const columns = [
    { label: "seed", cls: "num", cell: (g) => g.seed ?? "-", sort: (g) => g.seed ?? -1 },
    { label: "game", cell: (g) => el("a", { href: `#game=${encodeURIComponent(g.id)}`,
      class: "game-link" }, g.id), sort: (g) => g.id },
    ...cmp.runs.map((run, i) => ({ label: `run ${i + 1}: outcome, score, claims (wrong)`,
      cell: (g) => el("span", {}, outcomeCell(g.rows[i]), ` · ${scoreText(g.rows[i])} · ` +
        `${fmtNumber(g.rows[i].stated)} (${fmtNumber(g.rows[i].wrong)})`),
      sort: (g) => scoreValue(g.rows[i]) })),
    { label: "difference", cls: "num", cell: (g) => fmtNumber(g.distance), sort: (g) => g.distance },
  ];
  const made = sortableTable(columns, cmp.games, { class: "games shared-games" },
    (g) => ({ "data-game": g.id, class: "game-row" }), { pageSize: PAGE, onRow: (game, tr) =>
      tr.addEventListener("click", (event) => {
        event.preventDefault();
        openInPlace(tr, game.id, game.rows.map((r) => r.packed), columns.length);
      }) });
  const byId = new Map(cmp.games.map((g, i) => [g.id, i]));
  host.append(filterBar(made, (g) => [g.id, ...g.rows.map((r) => r.outcome.reason)].join(" "),
    (g) => g.rows.reduce((s, r) => s + r.wrong, 0)), made.node,
  el("p", { class: "muted" }, "Difference: the summed absolute differences of the seats' " +
    "scores and wrong claims from run 1's."));
  return deepLink(byId, made, (game, tr, step) =>
    openInPlace(tr, game.id, game.rows.map((r) => r.packed), columns.length, step));
}

async function start() {
  const main = document.querySelector("main");
  let follow = null;
  if (DATA.kind === "game") {
    const host = el("section", { class: "game", id: "game-view" });
    main.append(host);
    const view = await unpack(DATA.packed);
    const stepOf = (params) => Math.max(0, (parseInt(params.get("step"), 10) || 1) - 1);
    const stepper = renderGame(view, host, { step: stepOf(readHash()),
      onStep: (index) => writeHash({ step: index + 1 }) });
    keyTarget = stepper;
    follow = (params) => stepper.show(stepOf(params));
  } else if (DATA.kind === "run") {
    follow = renderRun(DATA.run, main);
    await follow(readHash());
  } else {
    follow = renderCompare(DATA.compare, main);
    await follow(readHash());
  }
  window.addEventListener("hashchange", () => follow(readHash()));
  document.body.setAttribute("data-ready", "1");
}

start().catch((error) => {
  document.querySelector("main").append(el("pre", { class: "error" }, String(error)));
  document.body.setAttribute("data-ready", "error");
});
