"use strict";
// The replay page: fetches the frame of the move shown (the table page as the public saw it after that
// move, drawn by page.js's drawTable) and, when the switch is on, each seat's hidden cards beside it.
// The server holds every frame; nothing here is live. Keys: ← →, Home, End.

const R = { moves: 0, at: 0, secrets: false, asked: 0 };

function api(path) {
  return fetch("/replay/" + path).then((r) => r.json().then((body) => ({ ok: r.ok, body: body })));
}

async function show(n) {
  n = Math.max(0, Math.min(R.moves, n));
  R.at = n;
  const asked = ++R.asked;  // a quick run of clicks: only the last one's frame is drawn
  const frame = await api("frame/" + n);
  const hidden = byId("show-secrets").checked ? await api("secrets/" + n) : null;
  if (asked !== R.asked) return;
  draw(frame.body);
  drawSeatSecrets(hidden);
  byId("slider").value = String(n);
  byId("move").textContent = n === 0 ? "setup (move 0 of " + R.moves + ")" : "move " + n + " of " + R.moves;
  byId("first").disabled = byId("back").disabled = n === 0;
  byId("forward").disabled = byId("last").disabled = n === R.moves;
  document.body.dataset.move = String(n);
  status(R.over ? "replay · game over" : "replay · game still running", "");
}

function drawSeatSecrets(hidden) {
  const box = byId("secrets");
  box.replaceChildren();
  box.hidden = !hidden;
  if (!hidden) return;
  if (!hidden.ok) {
    box.appendChild(el("p", "notice", hidden.body.reason));
    return;
  }
  hidden.body.forEach((s) => {
    const one = el("div", "seat-secret");
    one.dataset.seat = s.seat;
    one.appendChild(el("h2", "", s.name + ": hidden"));
    if (s.blocks.length) drawBlocks(s.blocks, one);
    else one.appendChild(el("p", "muted", "nothing hidden"));
    box.appendChild(one);
  });
}

async function start() {
  const info = (await api("info")).body;
  R.moves = info.moves;
  R.over = info.over;
  const slider = byId("slider");
  slider.max = String(info.moves);
  slider.oninput = () => show(Number(slider.value));
  byId("first").onclick = () => show(0);
  byId("back").onclick = () => show(R.at - 1);
  byId("forward").onclick = () => show(R.at + 1);
  byId("last").onclick = () => show(R.moves);
  const box = byId("show-secrets");
  box.disabled = !info.secrets;
  byId("switch").classList.toggle("off", !info.secrets);
  byId("refused").textContent = info.secrets ? "" : info.refused;
  box.onchange = () => show(R.at);
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ev.target.tagName === "INPUT" && ev.target.type === "range") return;  // the slider's own keys
    const to = { ArrowLeft: R.at - 1, ArrowRight: R.at + 1, Home: 0, End: R.moves }[ev.key];
    if (to !== undefined) { ev.preventDefault(); show(to); }
  });
  show(0);
}

start();
