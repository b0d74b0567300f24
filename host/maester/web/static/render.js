"use strict";
// Draws a payload (host/maester/web/payload.py) knowing no game in particular: known shapes get a
// widget (cards by name, one entry per seat, lists of records, the Intrigue court) and anything
// else becomes a readable tree. Per-game hints (web/hints.py) only pick order, words and widgets.
// Text goes in with textContent only: names come from data and must never become markup.

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

class Ctx {
  constructor(p) {
    this.p = p;
    this.view = p.view || {};
    this.names = p.names || {};
    this.hints = p.hints || {};
    this.players = p.players || 0;
  }
  label(key) {
    const own = this.hints.labels && this.hints.labels[key];
    return own || key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  }
  perSeat(key, value) {
    const listed = (this.hints.per_seat || []).includes(key);
    return Array.isArray(value) && value.length === this.players && this.players > 0 && listed;
  }
  seat(i) {
    // A seat's name: its leader (B'Twixt), its character card (hint seat_label), or "Seat n".
    const key = this.hints.seat_label;
    const card = key && Array.isArray(this.view[key]) ? this.view[key][i] : null;
    let name = card ? (this.names[card] || card) : (this.p.seat_names || [])[i];
    if (!name) name = "Seat " + i;
    if (this.p.kind === "seat" && i === this.p.seat) name += " (you)";
    return /^Seat \d+/.test(name) ? name : name + " · seat " + i;
  }
}

function chip(ctx, id) {
  const c = el("span", "card", ctx.names[id] || id);
  c.title = id;
  const house = String(id).split("#")[0];
  c.dataset.base = house;
  c.dataset.card = id;  // a tap shows the card (page.js, showCard)
  return c;
}

function isRecord(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

function value(ctx, v, key, depth) {
  depth = depth || 0;
  if (v === null || v === undefined) return el("span", "muted", "—");
  if (typeof v === "number" && depth === 0 && (ctx.hints.seats || []).includes(key)) {
    return el("span", "str", ctx.seat(v));
  }
  if (typeof v === "boolean") return el("span", v ? "yes" : "no", v ? "yes" : "no");
  if (typeof v === "number") return el("span", "num", v);
  if (typeof v === "string") return ctx.names[v] ? chip(ctx, v) : el("span", "str", v);
  if (Array.isArray(v)) return list(ctx, v, key, depth);
  return tree(ctx, v, depth);
}

function list(ctx, v, key, depth) {
  if (v.length === 0) return el("span", "muted", "none");
  if (ctx.perSeat(key, v)) return seatTable(ctx, v, depth);
  if (v.every((x) => typeof x === "string" || typeof x === "number")) {
    const row = el("div", "chips");
    v.forEach((x) => row.appendChild(value(ctx, x, key, depth + 1)));
    return row;
  }
  if (v.every(isRecord)) return records(ctx, v, depth);
  const ol = el("ol", "list");
  v.forEach((x) => {
    const li = el("li");
    li.appendChild(value(ctx, x, key, depth + 1));
    ol.appendChild(li);
  });
  return ol;
}

function seatTable(ctx, v, depth) {
  const t = el("table", "seats");
  v.forEach((x, i) => {
    const tr = el("tr");
    tr.appendChild(el("th", "", ctx.seat(i)));
    const td = el("td");
    td.appendChild(value(ctx, x, null, depth + 1));
    tr.appendChild(td);
    t.appendChild(tr);
  });
  return t;
}

function records(ctx, v, depth) {
  const keys = [];
  v.forEach((r) => Object.keys(r).forEach((k) => { if (!keys.includes(k)) keys.push(k); }));
  const t = el("table", "records");
  const head = el("tr");
  head.appendChild(el("th", "", "#"));
  keys.forEach((k) => head.appendChild(el("th", "", ctx.label(k))));
  t.appendChild(head);
  v.forEach((r, i) => {
    const tr = el("tr");
    tr.appendChild(el("td", "num", i));
    keys.forEach((k) => {
      const td = el("td");
      // A list with one entry per seat inside a record (mission counts) reads best as a row.
      const x = r[k];
      td.appendChild(Array.isArray(x) && x.length === ctx.players && x.every((y) => typeof y === "number")
        ? el("span", "str", x.join(" · ")) : value(ctx, x, k, depth + 1));
      tr.appendChild(td);
    });
    t.appendChild(tr);
  });
  return t;
}

function tree(ctx, obj, depth) {
  const keys = Object.keys(obj);
  if (keys.length === 0) return el("span", "muted", "none");
  const dl = el("dl", "tree");
  keys.forEach((k) => {
    const seatKey = /^\d+$/.test(k) && Number(k) < ctx.players;
    dl.appendChild(el("dt", "", seatKey ? ctx.seat(Number(k)) : ctx.label(k)));
    const dd = el("dd");
    dd.appendChild(value(ctx, obj[k], k, depth + 1));
    dl.appendChild(dd);
  });
  return dl;
}

// The Intrigue court: a pyramid of rows, the top row first; only the reachable span of each row.
function court(ctx, c) {
  if (!isRecord(c) || !Array.isArray(c.cards)) return tree(ctx, c || {}, 0);
  const box = el("div", "court");
  for (let row = c.cards.length - 1; row >= 0; row--) {
    const span = (c.span || [])[row];
    if (!span) continue;
    const line = el("div", "court-row");
    for (let i = span[0]; i <= span[1]; i++) {
      const x = c.cards[row][i];
      line.appendChild(x ? chip(ctx, x) : el("span", "slot", "·"));
    }
    box.appendChild(line);
  }
  if (!box.childNodes.length) box.appendChild(el("span", "muted", "empty"));
  return box;
}

const WIDGETS = { court: court, records: (ctx, v) => (Array.isArray(v) ? list(ctx, v, null, 0) : value(ctx, v)) };

function section(ctx, key, v) {
  const s = el("section", "box item");
  s.dataset.key = key;
  s.appendChild(el("h3", "", ctx.label(key)));
  const w = (ctx.hints.widgets || {})[key];
  s.appendChild(w && WIDGETS[w] ? WIDGETS[w](ctx, v) : value(ctx, v, key, 0));
  return s;
}

function orderedKeys(ctx, skip) {
  const hide = new Set((ctx.hints.hide || []).concat(skip));
  const first = (ctx.hints.order || []).filter((k) => k in ctx.view && !hide.has(k));
  const rest = Object.keys(ctx.view).filter((k) => !hide.has(k) && !first.includes(k)).sort();
  return first.concat(rest);
}

function drawView(ctx, into, skip) {
  into.replaceChildren();
  orderedKeys(ctx, skip).forEach((k) => into.appendChild(section(ctx, k, ctx.view[k])));
}

function drawSecrets(ctx, into) {
  into.replaceChildren();
  const keys = (ctx.hints.secret || []).filter((k) => k in ctx.view);
  into.hidden = keys.length === 0;
  if (!keys.length) return keys;
  into.appendChild(el("h2", "", "Only you can see this"));
  keys.forEach((k) => into.appendChild(section(ctx, k, ctx.view[k])));
  return keys;
}

function drawLog(ctx, into, max) {
  into.replaceChildren(el("h2", "", ctx.p.kind === "seat" ? "Your log" : "What happened"));
  const ol = el("ul");  // the newest line first
  (ctx.p.log || []).slice(-(max || 1000)).reverse().forEach((line) => {
    const li = el("li", line.private ? "private" : "", line.text);
    if (line.private) li.title = "only you saw this";
    ol.appendChild(li);
  });
  into.appendChild(ol);
}

function drawStrip(ctx, into) {
  into.replaceChildren(el("h3", "", "The table's lights"));
  const row = el("div", "strip");
  (ctx.p.strip || []).forEach((seg) => {
    const g = el("div", "segment");
    g.dataset.segment = seg.name;
    const px = el("div", "pixels " + seg.pattern);
    px.style.animationDuration = seg.period + "ms";
    seg.pixels.forEach((rgb) => {
      const d = el("span", rgb ? "px lit" : "px");
      if (rgb) {
        d.style.background = "rgb(" + rgb.join(",") + ")";
        d.style.boxShadow = "0 0 8px rgb(" + rgb.join(",") + ")";
      }
      px.appendChild(d);
    });
    g.appendChild(px);
    g.appendChild(el("div", "segname", seg.label || seg.name));
    row.appendChild(g);
  });
  into.appendChild(row);
  into.hidden = !(ctx.p.strip || []).length;
}

// --- a game's own layout: blocks (web/blocks.py) ---------------------------------------------------
// Every label comes from the game's layout, in its words; this code only draws shapes.

function cardChip(c, cls) {
  const e = el("span", "card" + (cls ? " " + cls : ""), c.name);
  if (c.id) e.dataset.card = c.id;
  if (c.house) e.dataset.house = c.house;
  if (c.note) e.appendChild(el("small", "note", " " + c.note));
  (c.tags || []).forEach((t) => e.classList.add("tag-" + t));
  return e;
}

function cellContent(x) {
  if (Array.isArray(x)) {
    if (!x.length) return el("span", "muted", "—");
    const row = el("div", "chips");
    x.forEach((c) => row.appendChild(cardChip(c)));
    return row;
  }
  if (isRecord(x) && x.name) return cardChip(x);
  return el("span", "", x === null || x === undefined || x === "" ? "—" : x);
}

const BLOCKS = {
  facts(b) {
    const d = el("div", "facts");
    b.items.forEach(([label, v]) => {
      const f = el("div", "fact");
      f.appendChild(el("span", "fact-label", label));
      f.appendChild(el("span", "fact-value", v));
      d.appendChild(f);
    });
    return d;
  },
  track(b) {
    const d = el("div", "track");
    b.cells.forEach((c) => d.appendChild(el("span", "space " + (c.state || "todo"), c.label)));
    const out = el("div");
    out.appendChild(d);
    if (b.caption) out.appendChild(el("div", "caption", b.caption));
    return out;
  },
  cards(b) {
    if (!b.cards.length) return el("span", "muted", b.empty || "none");
    const row = el("div", "chips");
    b.cards.forEach((c) => row.appendChild(cardChip(c)));
    return row;
  },
  seats(b) {
    const t = el("table", "seatrows");
    const head = el("tr");
    head.appendChild(el("th", "", ""));
    b.columns.forEach((c) => head.appendChild(el("th", "", c)));
    t.appendChild(head);
    b.rows.forEach((r) => {
      const tr = el("tr", (r.tags || []).map((x) => "is-" + x).join(" "));
      tr.dataset.seat = r.seat;
      if (r.target) tr.dataset.target = r.target;  // a place to tap in a two-step choice (page.js)
      const th = el("th", "who");
      th.appendChild(el("span", "", r.name));
      (r.tags || []).forEach((x) => th.appendChild(el("span", "badge " + x, TAG_WORDS[x] || x)));
      tr.appendChild(th);
      r.cells.forEach((x) => { const td = el("td"); td.appendChild(cellContent(x)); tr.appendChild(td); });
      t.appendChild(tr);
    });
    return t;
  },
  pyramid(b) {
    // Rows top first; each row is shifted right by half a place per step up (`indent`), so a card
    // sits across the two it rests on. Widths are fractions of the box: it never overflows.
    const box = el("div", "pyramid");
    box.style.setProperty("--cols", String(b.columns || 1));
    b.rows.forEach((r) => {
      const line = el("div", "pyr-row");
      line.style.setProperty("--indent", String(r.indent || 0));
      r.cells.forEach((c) => {
        let cell;
        if (c && c.slot) {
          cell = el("span", "pyr-cell slot", "");
          if (c.target) cell.dataset.target = c.target;
        } else if (c) {
          cell = cardChip(c, "pyr-cell");
        } else {
          cell = el("span", "pyr-cell gap", "");
        }
        line.appendChild(cell);
      });
      box.appendChild(line);
    });
    if (!b.rows.length) box.appendChild(el("span", "muted", b.empty || "empty"));
    return box;
  },
  panels(b) {
    const d = el("div", "panels");
    b.items.forEach((it) => {
      const p = el("div", "panel " + (it.tags || []).map((x) => "is-" + x).join(" "));
      if (it.target) p.dataset.target = it.target;  // a place to tap in a two-step choice (page.js)
      if (it.title) p.appendChild(el("div", "panel-title", it.title));
      (it.tags || []).forEach((x) => p.appendChild(el("span", "badge " + x, TAG_WORDS[x] || x)));
      if (it.cards && it.cards.length) p.appendChild(cellContent(it.cards));
      (it.lines || []).forEach((line) => p.appendChild(el("div", "panel-line", line)));
      (it.groups || []).forEach(([label, cards]) => {  // labelled rows of cards (a seat's characters, ...)
        const g = el("div", "panel-group");
        g.appendChild(el("span", "panel-group-label", label));
        g.appendChild(cellContent(cards));
        p.appendChild(g);
      });
      d.appendChild(p);
    });
    return d;
  },
  text(b) {
    return el("p", "say " + (b.tone || ""), b.text);
  },
};

// Seat-row and panel tags, in words (the layouts name the tags; these are the badges' texts).
const TAG_WORDS = { you: "you", turn: "to play", first: "first", out: "out", knelt: "knelt", winner: "winner",
  done: "done", won: "succeeded", lost: "failed", now: "now", initiative: "won initiative",
  hand: "Hand of the King", used: "ability used", cells: "one card only", cornered: "cornered", taken: "taken" };

function drawBlocks(blocks, into) {
  (blocks || []).forEach((b) => {
    const s = el("section", "box block block-" + b.type);
    if (b.title) s.appendChild(el("h3", "", b.title));
    s.appendChild((BLOCKS[b.type] || ((x) => tree(null, x, 0)))(b));
    into.appendChild(s);
  });
}
