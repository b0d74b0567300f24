"use strict";
// A live page: the server pushes the whole payload on every change over a websocket; a seat's
// buttons post the command (ask id + choice) and the push that follows redraws the page.
// The page's own URL is its address: /table, or /seat/<n>/<token> (the token never leaves it).
//
// A seat's page is built for a phone: first what is happening now (the decision, what it is about,
// its buttons), then a short feed of what just happened; the table, the seat's hand and secrets and
// the whole log are tabs one tap away in the bar at the bottom. The table page is for a TV.

const BASE = location.pathname.replace(/\/+$/, "");
const SEAT_PAGE = document.body.dataset.page === "seat";
// A hands page (/hands/<n>/<token>, the seat page's file) shows a bot's seat to the person handling
// its cards: what its bot chose and the card to tap, no buttons.
const HANDS_PAGE = SEAT_PAGE && location.pathname.startsWith("/hands/");
const FEED_LINES = 4;
const TV_LOG_LINES = 14;  // what a room can read at a glance; the whole log is in the file
let updates = 0;
let picked = null;  // the card chosen first in a two-step choice (a card, then its place)
let shown = null;  // the payload drawn last: what a tap on a card's name reads its text from

function status(text, cls) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = "status " + (cls || "");
}

function byId(id) {
  return document.getElementById(id);
}

function draw(p) {
  shown = p;
  const ctx = new Ctx(p);
  const who = SEAT_PAGE ? ctx.seat(p.seat).replace(" (you)", "") : "table";
  byId("title").textContent = HANDS_PAGE ? who + "'s bot: its cards" : SEAT_PAGE ? who : p.title;
  document.title = "Maester — " + who;
  document.body.dataset.game = p.game;
  if (SEAT_PAGE) drawSeat(ctx);
  else drawTable(ctx);
  updates += 1;
  document.body.dataset.updates = String(updates);
}

// --- the seat's page -----------------------------------------------------------------------------

function drawSeat(ctx) {
  const p = ctx.p;
  const lay = p.layout;
  const now = byId("now");
  now.replaceChildren();
  const about = el("div", "about");
  if (lay) drawBlocks(lay.about, about);
  drawDecisions(ctx, now, about);
  drawFeed(ctx, byId("feed"));
  const board = byId("tab-board");
  const secret = byId("tab-secret");
  board.replaceChildren();
  secret.replaceChildren();
  if (lay) {
    drawBlocks(lay.board, board);
    drawBlocks(lay.secret, secret);
    if (!(lay.secret || []).length) secret.appendChild(el("p", "muted", "Nothing hidden is yours right now."));
  } else {
    // A game without a layout: the generic drawing of its view.
    const keys = drawSecrets(ctx, secret);
    drawView(ctx, board, keys);
  }
  drawLog(ctx, byId("tab-log"));
  const hand = byId("tab-hand-count");
  if (hand) hand.textContent = lay && lay.hand_count !== undefined ? " (" + lay.hand_count + ")" : "";
}

function drawDecisions(ctx, into, about) {
  const p = ctx.p;
  drawUndo(ctx, into);
  if (p.notice) into.appendChild(el("p", "notice", "Your tap was refused: " + p.notice));
  drawClocks(ctx, into);
  if (HANDS_PAGE) drawPlans(p.plans || [], into);
  drawWindows(ctx, into);
  if (p.pending) {
    into.appendChild(el("h2", "", "Where does " + p.pending.card_name + " go?"));
    const row = el("div", "options");
    p.pending.labels.forEach((label, i) => {
      const b = el("button", "option", label);
      b.dataset.ask = p.pending.ask;
      b.dataset.pending = i;
      b.onclick = () => send({ ask: p.pending.ask, pending: i }, row);
      row.appendChild(b);
    });
    into.appendChild(row);
  }
  const mine = p.decisions || [];
  if (!mine.length) {
    if (!p.pending) into.appendChild(waitingLine(ctx));
    into.appendChild(about);
    into.classList.remove("deciding");
    return;
  }
  into.classList.add("deciding");
  mine.forEach((d, n) => {
    into.appendChild(el("h2", "prompt", d.prompt || "Your decision"));
    if (n === 0) into.appendChild(about);  // what the decision is about, right by its buttons
    const row = el("div", "options");
    const pickable = d.options.filter((o) => o.pick && o.at);
    if (pickable.length && about.querySelector("[data-target]")) drawPicker(ctx, d, pickable, row, about);
    d.options.forEach((o, i) => {
      if (o.pick && o.at && row.dataset.picker) return;  // chosen on the picture instead
      const b = el("button", "option", o.label);
      b.dataset.ask = d.ask;
      b.dataset.index = i;
      b.disabled = !p.can_choose;
      b.onclick = () => send({ ask: d.ask, choice: o.choice }, row);
      row.appendChild(b);
    });
    into.appendChild(row);
    if (!p.can_choose) into.appendChild(el("p", "muted", "This seat is played at the terminal."));
  });
  into.appendChild(el("p", "reason", ""));
}

// What the bot chose, for the person who handles its cards: the words, and the card to tap where.
function drawPlans(plans, into) {
  plans.forEach((plan) => {
    const box = el("div", "plan");
    box.dataset.ask = plan.ask;
    box.appendChild(el("h2", "prompt", "The bot: " + plan.what));
    if (plan.tap) {
      const line = el("p", "tap", "Tap ");
      const card = el("span", "card", plan.tap.name);
      card.dataset.card = plan.tap.card;
      line.append(card, " on reader " + plan.tap.reader + ".");
      line.dataset.reader = plan.tap.reader;
      box.appendChild(line);
    } else box.appendChild(el("p", "muted", "No card to tap: the table plays it."));
    into.appendChild(box);
  });
}

// A choice of a card and a place (the Intrigue court): tap a card, then one of the places lit for it.
function drawPicker(ctx, d, options, row, about) {
  row.dataset.picker = "1";
  const cards = [];
  options.forEach((o) => { if (!cards.some((c) => c.pick === o.pick)) cards.push(o); });
  if (!cards.some((c) => c.pick === picked)) picked = cards.length === 1 ? cards[0].pick : null;
  const hint = el("p", "muted", picked ? "Now tap a lit place." : "Tap a card, then a lit place for it.");
  cards.forEach((c) => {
    const b = el("button", "option pick" + (c.pick === picked ? " picked" : ""), c.pick_name || ctx.names[c.pick] || c.label);
    b.dataset.ask = d.ask;
    b.dataset.pick = c.pick;
    b.disabled = !ctx.p.can_choose;
    b.onclick = () => { picked = c.pick; draw(ctx.p); };
    row.appendChild(b);
  });
  row.appendChild(hint);
  options.filter((o) => o.pick === picked).forEach((o) => {
    const spot = about.querySelector('[data-target="' + o.at + '"]');
    if (!spot || !ctx.p.can_choose) return;
    spot.classList.add("legal");
    spot.setAttribute("role", "button");
    spot.dataset.ask = d.ask;
    spot.title = o.label;
    spot.onclick = () => { picked = null; send({ ask: d.ask, choice: o.choice }, row); };
  });
}

// Undo (web/undo.py): the button, the other seats' votes, then the cards to put back, in the words
// this page's viewer may read (a card it could not see is "a card").
function drawUndo(ctx, into) {
  const u = ctx.p.undo;
  const box = el("div", "undo");
  box.dataset.undo = u ? (u.put_back.length ? "put-back" : "asked") : "none";
  const row = el("div", "options");
  if (!u) {
    if (SEAT_PAGE && ctx.p.can_choose) {
      const b = el("button", "option undo-ask", "Undo last move");
      b.onclick = () => send({ undo: "ask" }, row);
      row.appendChild(b);
      box.appendChild(row);
      into.appendChild(box);
    }
    return;
  }
  (u.warn || []).forEach((w) => box.appendChild(el("p", "notice", "Warning: " + w + "; it cannot be unseen.")));
  if (u.waiting.length) {
    box.appendChild(el("p", "", ctx.seat(u.asked_by) + " asks to take back the last move; waiting for "
      + u.waiting.map((s) => ctx.seat(s)).join(", ") + "."));
    if (u.vote) {
      [["yes", "Agree"], ["no", "Refuse"]].forEach(([what, label]) => {
        const b = el("button", "option", label);
        b.onclick = () => send({ undo: what }, row);
        row.appendChild(b);
      });
    }
  } else {
    box.appendChild(el("h2", "", "Undone: put these cards back, then tap each one"));
    const ul = el("ul", "put-back");
    u.put_back.forEach((line) => ul.appendChild(el("li", "", line)));
    box.appendChild(ul);
    if (SEAT_PAGE) {
      const b = el("button", "option", "The cards are back");
      b.onclick = () => send({ undo: "done" }, row);
      row.appendChild(b);
    }
  }
  box.appendChild(row);
  into.appendChild(box);
}

// The open windows (table/asking.py): each closes by itself when its countdown ends, the same for
// every seat whatever it holds. The seat asked may act within it, or hold it to answer in its own time.
function drawWindows(ctx, into) {
  (ctx.p.windows || []).forEach((w) => {
    const mine = SEAT_PAGE && w.seat === ctx.p.seat;
    const who = mine ? "Your window" : (w.seat === "table" ? "The table's window" : ctx.seat(w.seat) + "'s window");
    const line = el("p", "window" + (mine ? " mine" : ""));
    line.dataset.window = w.ask;
    if (w.held) line.appendChild(el("span", "", who + " is held" + (mine ? ": act or pass when ready" : "")));
    else {
      line.appendChild(el("span", "", who + " closes in "));
      const left = el("span", "countdown", "");
      left.dataset.until = String(Date.now() + w.left_ms);
      line.appendChild(left);
      tick(left);
      if (mine && ctx.p.can_choose) {
        const b = el("button", "option hold", "Hold");
        b.onclick = () => send({ ask: w.ask, hold: true }, line);
        line.appendChild(b);
      }
    }
    into.appendChild(line);
  });
}

// The seats' clocks (table/clocks.py): public, the same on every page. A running one counts down
// here between two updates; the host's reading replaces it at each.
function drawClocks(ctx, into) {
  const c = ctx.p.clocks;
  if (!c) return;
  const row = el("div", "clocks");
  row.appendChild(el("span", "clocks-title", "Clocks " + c.setting + (c.paused.length ? " (stopped)" : "")));
  c.seats.forEach((s) => {
    const mine = SEAT_PAGE && s.seat === ctx.p.seat;
    const face = el("span", "clock" + (s.running ? " running" : "") + (s.low ? " low" : "") + (s.left_ms ? "" : " out") + (mine ? " mine" : ""));
    face.dataset.seat = s.seat;
    face.appendChild(el("span", "clock-who", mine ? "You" : ctx.seat(s.seat)));
    const time = el("span", "clock-time", "");
    time.dataset.left = String(s.left_ms);
    time.dataset.since = String(Date.now());
    if (s.running) time.dataset.running = "1";
    face.appendChild(time);
    clockTick(time);
    row.appendChild(face);
  });
  into.appendChild(row);
}

function clockTick(span) {
  const ran = span.dataset.running ? Date.now() - Number(span.dataset.since) : 0;
  const ms = Math.max(0, Number(span.dataset.left) - ran);
  if (ms <= 0) { span.textContent = "out of time"; return; }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  span.textContent = ms < 10000 ? (ms / 1000).toFixed(1) : h ? h + ":" + mm.padStart(2, "0") + ":" + ss : mm + ":" + ss;
}

setInterval(() => document.querySelectorAll(".clock-time[data-running]").forEach(clockTick), 100);

function tick(span) {
  const left = Math.max(0, Number(span.dataset.until) - Date.now());
  span.textContent = (left / 1000).toFixed(1) + " s";
}

setInterval(() => document.querySelectorAll(".countdown").forEach(tick), 100);

function waitingLine(ctx) {
  const v = ctx.view;
  if (v.over) return el("h2", "over", "The game is over");
  const w = ctx.p.waiting || [];
  const line = el("p", "waiting", w.length ? "Waiting for " : "");
  w.forEach((x, i) => {
    const who = el("span", "", (i ? ", " : "") + x.name + (x.doing ? " (" + x.doing + ")" : ""));
    who.dataset.seat = x.seat;
    line.appendChild(who);
  });
  return line;
}

function drawFeed(ctx, into) {
  into.replaceChildren(el("h3", "", "Just now"));
  const lines = (ctx.p.log || []).slice(-FEED_LINES).reverse();
  const ul = el("ul");
  lines.forEach((line) => ul.appendChild(el("li", line.private ? "private" : "", line.text)));
  if (!lines.length) ul.appendChild(el("li", "muted", "Nothing yet."));
  into.appendChild(ul);
}

async function send(body, row) {
  row.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  const reason = document.querySelector(".reason");
  try {
    const r = await fetch(BASE + "/choose", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const out = await r.json();
    if (!out.ok && reason) reason.textContent = "Not accepted: " + out.reason;
  } catch (e) {
    if (reason) reason.textContent = "Not sent: " + e;
  }
  row.querySelectorAll("button").forEach((b) => { b.disabled = false; });
}

function showTab(name) {
  document.querySelectorAll("[data-tab]").forEach((b) => b.classList.toggle("on", b.dataset.tab === name));
  document.querySelectorAll(".tab").forEach((t) => { t.hidden = t.id !== "tab-" + name; });
}

function openTab(name) {
  // A tap on a tab shows it at once: the hand, say, is brought up under the thumb, not left below
  // the decision and the feed.
  showTab(name);
  byId("tab-" + name).scrollIntoView({ block: "start" });
}

// --- the table page (a TV) -----------------------------------------------------------------------

function drawTable(ctx) {
  const p = ctx.p;
  const head = byId("waiting");
  head.replaceChildren(waitingLine(ctx));
  drawClocks(ctx, head);
  (p.bot_hands || []).forEach((line) => head.appendChild(el("p", "bot-hands", line)));
  drawWindows(ctx, head);
  drawUndo(ctx, head);
  drawStrip(ctx, byId("strip"));
  const board = byId("board");
  board.replaceChildren();
  if (p.layout && p.layout.some((b) => b.column)) {
    // The game placed its blocks in columns (0 and 1) for the TV's width.
    [0, 1].forEach((n) => {
      const col = el("div", "column");
      drawBlocks(p.layout.filter((b) => (b.column || 0) === n), col);
      board.appendChild(col);
    });
    board.classList.add("columns");
  } else if (p.layout) drawBlocks(p.layout, board);
  else drawView(ctx, board, []);
  drawLog(ctx, byId("log"), TV_LOG_LINES);
}

// --- a card's text, on a tap on its name (both pages) ------------------------------------------------
// The payload carries each named card's facts and ability in our words (payload.Words.about), only for
// the cards its view names; a tap on a name shows them in a box that a second tap closes.

function showCard(id) {
  const about = shown && shown.about && shown.about[String(id).split("#")[0]];
  if (!about) return;
  let box = byId("card-about");
  if (!box) {
    box = el("div", "card-about");
    box.id = "card-about";
    box.setAttribute("role", "dialog");
    box.onclick = () => { box.hidden = true; };
    document.body.appendChild(box);
  }
  box.replaceChildren(el("h3", "", about.name));
  about.lines.forEach((line) => box.appendChild(el("p", "", line)));
  box.appendChild(el("p", "muted", "Tap to close."));
  box.hidden = false;
}

document.addEventListener("click", (ev) => {
  const chip = ev.target.closest && ev.target.closest(".card[data-card]");
  // A card that is a place to tap in a two-step choice answers that choice instead.
  if (!chip || chip.classList.contains("legal") || chip.closest("button")) return;
  showCard(chip.dataset.card);
});

function connect(delay) {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + BASE + "/ws");
  ws.onopen = () => { delay = 500; status("live", "live"); };
  ws.onmessage = (ev) => draw(JSON.parse(ev.data));
  ws.onclose = () => {
    status("reconnecting…", "down");
    setTimeout(() => connect(Math.min(delay * 2, 8000)), delay);
  };
}

document.querySelectorAll("[data-tab]").forEach((b) => { b.onclick = () => openTab(b.dataset.tab); });
if (SEAT_PAGE) showTab("board");
if (HANDS_PAGE) document.querySelector('[data-tab="secret"]').firstChild.textContent = "Its hand";
if (!document.body.dataset.replay) connect(500);  // the replay page (replay.js) fetches its frames itself
