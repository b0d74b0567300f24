"""What `play` prints about the seat pages: links for the people only, QR codes only where a phone can open them."""

import io
from types import SimpleNamespace

from maester.engine.session import Session
from maester.web.app import WebGame
from maester.web.launch import PHONE_HINT, announce


def _printed(tmp_path, lan, answerable):
    session = Session.new("intrigue", {"players": 3}, 1, str(tmp_path / "g.sqlite"))
    try:
        web = WebGame(session, answerable=answerable)
        out = io.StringIO()
        found = announce(web, SimpleNamespace(port=8123), lan, ["Ann", "Bo", "Cy"], out=out,
                         save_to=str(tmp_path / "links"))
        return out.getvalue(), found, (tmp_path / "links").read_text()
    finally:
        session.close()


def test_bot_seats_get_no_link_and_no_code(tmp_path):
    text, found, saved = _printed(tmp_path, lan=True, answerable=[1])
    assert "Bo, private page" in text and "Ann" not in text and "Cy" not in text
    assert set(found["seats"]) == {1} and found["seats"][1] in saved  # bots' seats have no page at all
    assert "█" in text or "▀" in text or "▄" in text  # the one person's QR code


def test_without_lan_the_links_come_with_a_phone_hint_and_no_qr_code(tmp_path):
    text, found, _ = _printed(tmp_path, lan=False, answerable=[0, 1, 2])
    assert all(found["seats"][s] in text for s in range(3))
    assert PHONE_HINT in text
    assert not any(ch in text for ch in "█▀▄")
