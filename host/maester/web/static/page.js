"use strict";
// A live page: the server pushes the whole payload on every change over a websocket; a seat's
// buttons post the command (ask id + choice) and the push that follows redraws the page.
// The page's own URL is its address: /table, or /seat/<n>/<token> (the token never leaves it).

const BASE = location.pathname.replace(/\/+$/, "");
const SEAT_PAGE = document.body.dataset.page === "seat";
let updates = 0;

function status(text, cls) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = "status " + (cls || "");
}

function draw(p) {
  const ctx = new Ctx(p);
  const who = SEAT_PAGE ? ctx.seat(p.seat).replace(" (you)", "") : "table";
  document.getElementById("title").textContent = p.title + " — " + who;
  document.title = "Maester — " + who;
  drawTurn(ctx, document.getElementById("turn"));
  let skip = [];
  if (SEAT_PAGE) {
    drawDecisions(ctx, document.getElementById("decide"));
    skip = drawSecrets(ctx, document.getElementById("secrets"));
  } else {
    drawStrip(ctx, document.getElementById("strip"));
  }
  drawView(ctx, document.getElementById("view"), skip);
  drawLog(ctx, document.getElementById("log"));
  updates += 1;
  document.body.dataset.updates = String(updates);
}

function drawDecisions(ctx, into) {
  const p = ctx.p;
  into.replaceChildren();
  const open = (p.decisions || []).length || p.pending || p.notice;
  into.hidden = !open;
  // Why this seat's last tap was refused, naming its card: for this page only.
  if (p.notice) into.appendChild(el("p", "notice", "Your tap was refused: " + p.notice));
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
  (p.decisions || []).forEach((d) => {
    into.appendChild(el("h2", "", d.prompt || "Your decision"));
    const row = el("div", "options");
    d.options.forEach((o, i) => {
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

async function send(body, row) {
  row.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  const reason = document.querySelector("#decide .reason");
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

function connect(delay) {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + BASE + "/ws");
  ws.onopen = () => { delay = 500; status("live", "live"); };
  ws.onmessage = (ev) => draw(JSON.parse(ev.data));
  ws.onclose = () => {
    status("reconnecting…", "down");
    setTimeout(() => connect(Math.min(delay * 2, 8000)), delay);
  };
}

connect(500);
