"""What a page must never do, checked in the real browser: scroll sideways, put an element outside
its box, show text under 24 px on a TV page, or show engine words (field names, card ids).

`problems(page, view, tv)` returns a list of readable problems (empty when the page is fine).
Used by tests/test_web_screens.py; also handy by hand while laying out a game's page.
"""

import re

# Runs in the page: every visible element is measured against its parent and the viewport.
_LAYOUT_JS = r"""
(minFont) => {
  const out = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "") +
    " \"" + (e.textContent || "").trim().slice(0, 40) + "\"";
  const doc = document.scrollingElement;
  if (doc.scrollWidth > window.innerWidth + 1) out.push("the page scrolls sideways (" + doc.scrollWidth + " px wide)");
  for (const e of document.querySelectorAll("body *")) {
    const style = getComputedStyle(e);
    if (style.display === "none" || style.visibility === "hidden" || e.closest("[hidden]")) continue;
    if (["SCRIPT", "STYLE", "BR"].includes(e.tagName)) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const p = e.parentElement;
    if (p && p !== document.body && p !== document.documentElement) {
      const q = p.getBoundingClientRect();
      if (r.left < q.left - 1 || r.right > q.right + 1) out.push("outside its box: " + name(e) + " in " + name(p));
    }
    if (e.scrollWidth > e.clientWidth + 1 && style.overflowX !== "visible" && e.clientWidth > 0)
      out.push("cut or scrolls sideways: " + name(e));
    if (minFont) {
      const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (own && parseFloat(style.fontSize) < minFont) out.push("text at " + style.fontSize + ": " + name(e));
    }
  }
  return out;
}
"""

# Words that are the engine's, not the game's: seen on the old pages.
ENGINE_WORDS = ["Box 0", "Tiebreak", "Next start", "Round track", "Last space", "Removed unseen", "Track length",
                "undefined", "null", "NaN", "[object", "true", "false"]
# View keys whose plain words are also the rulebook's words for the thing: fine to show.
GAME_WORDS = {"ally deck", "mission deck", "decree deck", "throne deck",
              # The LCG's log in plain English: "Seat 1 (Lannister) has chosen a plot" (face down, not
              # which), "Seat 0 (Stark) takes back its used plots" (the rulebook's used pile of plots).
              "has chosen", "used plots",
              # Oathbreaker: Arya Stark plays a card "face up" to a mission (the rulebook's words; the
              # view's face_up list is those cards).
              "face up"}
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
CARD_ID = re.compile(r"[a-z]#\d")


def view_keys(value, out=None):
    """Every key of a view, at any depth."""
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            view_keys(v, out)
    elif isinstance(value, list):
        for v in value:
            view_keys(v, out)
    return out


def word_problems(text, view):
    found = []
    for word in ENGINE_WORDS:
        if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(word), text):
            found.append("engine word on the page: %r" % word)
    found += ["engine name on the page: %r" % m for m in sorted(set(SNAKE.findall(text)))]
    found += ["card id on the page: %r" % text[max(0, m.start() - 20):m.end() + 2]
              for m in CARD_ID.finditer(text)]
    for key in view_keys(view):
        if "_" in key and key.replace("_", " ") not in GAME_WORDS:
            human = key.replace("_", " ")
            if re.search(r"\b%s\b" % re.escape(human), text, re.IGNORECASE):
                found.append("a view field shown by its name: %r" % human)
    return found


def problems(page, view, tv=False):
    """Everything wrong with the page as it stands (the whole page: every tab shown in turn)."""
    found = list(page.evaluate(_LAYOUT_JS, 24 if tv else 0))
    text = page.inner_text("body")
    for tab in page.query_selector_all("[data-tab]"):  # a seat page: each tab drawn and measured
        tab.click()
        found += page.evaluate(_LAYOUT_JS, 0)
        text += "\n" + page.inner_text("body")
    if page.query_selector("[data-tab]"):
        page.query_selector("[data-tab]").click()
    found += word_problems(text, view)
    return sorted(set(found))
