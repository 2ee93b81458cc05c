// The gumshoe viewer: renders the JSON embedded in this page; no network, no libraries.
// base.js: building nodes, words for numbers, sortable tables, the address's #fragment.
const DATA = JSON.parse(document.getElementById("gumshoe-data").textContent);
const SVG_NS = "http://www.w3.org/2000/svg";

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (typeof value === "function") node.addEventListener(key.replace(/^on/, ""), value);
    else node.setAttribute(key, value);
  }
  return append(node, children);
}

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  return append(node, children);
}

// --- numbers in words --------------------------------------------------------------------------

function fmtNumber(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "-";
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return Number(v.toFixed(digits)).toLocaleString("en-US", { maximumFractionDigits: digits });
}

function fmtPercent(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "-";
  const p = v * 100;
  if (p > 1e-9 && p < 0.5) return "<1%";
  if (p < 100 - 1e-9 && p >= 99.5) return ">99%";
  return `${Math.round(p)}%`;
}

function interval(e, fmt) {
  if (!e || e.low === null || e.low === undefined || e.high === null || e.high === undefined) {
    return "";
  }
  const low = fmt(e.low), high = fmt(e.high);
  return low === high ? "" : ` (${low} to ${high})`;
}

function fmtShare(e) {
  if (!e || e.value === null || e.value === undefined) return "-";
  return fmtPercent(e.value) + interval(e, fmtPercent);
}

function fmtMean(e) {
  if (!e || e.value === null || e.value === undefined) return "-";
  return fmtNumber(e.value) + interval(e, fmtNumber);
}

function signed(v, fmt) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "-";
  const text = fmt(Math.abs(v));
  return v > 0 ? `+${text}` : v < 0 ? `−${text}` : text;
}

function fmtPoints(v) {
  return `${Math.round(Math.abs(v) * 100)}`;
}

// A difference of shares in percentage points, or of means, with its interval.
function fmtDifference(e, shares) {
  if (!e || e.value === null || e.value === undefined) return "-";
  const fmt = shares ? fmtPoints : (v) => fmtNumber(v);
  const unit = shares ? " points" : "";
  const bounds = e.low === null || e.low === undefined ? ""
    : ` (${signed(e.low, fmt)} to ${signed(e.high, fmt)})`;
  return signed(e.value, fmt) + unit + bounds;
}

function fmtSeconds(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return "-";
  return s < 1 ? `${Math.round(s * 1000)} ms` : `${fmtNumber(s)} s`;
}

function fmtCost(c) {
  if (c === null || c === undefined || !Number.isFinite(c)) return "-";
  return c > 0 && c < 0.01 ? "<$0.01" : `$${c.toFixed(2)}`;
}

function listing(words) {
  return words.length < 2 ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function plural(n, word) {
  return `${fmtNumber(n)} ${word}${n === 1 ? "" : "s"}`;
}

// --- tables ------------------------------------------------------------------------------------

function table(columns, rows, attrs) {
  return el("table", attrs || {},
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, c)))),
    el("tbody", {}, rows));
}

// A table whose columns sort on a click of their heading (again: the other way), shown
// ``pageSize`` rows a page when given (rows are built when first shown). ``columns``: {label,
// cell(row) -> node or text, sort(row) -> number or text}; ``rowAttrs(row)`` adds to each row,
// ``onRow(row, tr)`` is called as a row is built. Returns {node, tbody, rows, filter(keep),
// reveal(index) -> its tr, now on the page shown}.
function sortableTable(columns, rows, attrs, rowAttrs, options) {
  const opts = options || {};
  const tbody = el("tbody");
  const built = new Map();
  const pager = el("div", { class: "pager" });
  let order = rows.map((_, i) => i);
  let keep = () => true;
  let page = 0;
  const state = { column: null, up: true };
  function rowOf(i) {
    if (!built.has(i)) {
      const tr = el("tr", rowAttrs ? rowAttrs(rows[i]) : {},
        columns.map((c) => el("td", { class: c.cls }, c.cell(rows[i]))));
      if (opts.onRow) opts.onRow(rows[i], tr);
      built.set(i, tr);
    }
    return built.get(i);
  }
  function shown() {
    return order.filter((i) => keep(rows[i]));
  }
  function render() {
    const all = shown();
    const size = opts.pageSize || Math.max(all.length, 1);
    const pages = Math.max(1, Math.ceil(all.length / size));
    page = Math.max(0, Math.min(page, pages - 1));
    tbody.replaceChildren(...all.slice(page * size, (page + 1) * size).map(rowOf));
    pager.replaceChildren();
    if (pages > 1) {
      pager.append(
        el("button", { class: "page-prev", disabled: page === 0 ? "" : null,
          onclick: () => { page -= 1; render(); } }, "◀ previous"),
        ` rows ${fmtNumber(page * size + 1)} to ${fmtNumber(Math.min(all.length, (page + 1) * size))}` +
          ` of ${fmtNumber(all.length)} `,
        el("button", { class: "page-next", disabled: page === pages - 1 ? "" : null,
          onclick: () => { page += 1; render(); } }, "next ▶"));
    }
    return all.length;
  }
  const heads = columns.map((c, i) => el("th", {
    class: c.sort ? "sortable" : null, title: c.sort ? "sort by this column" : null,
    onclick: c.sort ? () => sortBy(i) : null }, c.label));
  function sortBy(i) {
    state.up = state.column === i ? !state.up : true;
    state.column = i;
    const key = columns[i].sort;
    order = [...order].sort((a, b) => {
      const x = key(rows[a]), y = key(rows[b]);
      const diff = typeof x === "number" && typeof y === "number" ? x - y
        : String(x).localeCompare(String(y), "en", { numeric: true });
      return state.up ? diff : -diff;
    });
    heads.forEach((h, j) => h.setAttribute("aria-sort",
      j === i ? (state.up ? "ascending" : "descending") : "none"));
    render();
  }
  render();
  const node = el("div", { class: "table-box" },
    el("table", attrs || {}, el("thead", {}, el("tr", {}, heads)), tbody), pager);
  return {
    node, tbody, rows,
    filter: (predicate) => { keep = predicate; page = 0; return render(); },
    reveal: (i) => {
      const at = shown().indexOf(i);
      if (at >= 0 && opts.pageSize) { page = Math.floor(at / opts.pageSize); render(); }
      return rowOf(i);
    },
  };
}

// --- the address's #fragment: deep links such as #game=clue-seed3&step=12 ------------------------

function readHash() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

function writeHash(params) {
  const text = "#" + new URLSearchParams(params).toString();
  if (location.hash === text) return;
  try {
    history.replaceState(null, "", text);
  } catch (error) {
    location.replace(text);
  }
}

// The game whose steps the arrow keys move (the one opened last).
let keyTarget = null;
document.addEventListener("keydown", (event) => {
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (!keyTarget || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "ArrowRight") { keyTarget.move(1); event.preventDefault(); }
  if (event.key === "ArrowLeft") { keyTarget.move(-1); event.preventDefault(); }
});

async function unpack(packed) {
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}
