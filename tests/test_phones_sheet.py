"""The printed sheet of QR codes (``--phone-links FILE.html``), read as a phone's camera would: rendered by Debian's
chromium headless, to a screenshot and to a PDF printed from it, and every code decoded from the image by zbar
(Debian's zbar-tools; the PDF's page made an image by pdftoppm). On a table without a screen the sheet is the only
way onto the phones: a code that does not decode is a player who cannot play. Marked browser: out of the fast lane;
scripts/setup.sh --test installs chromium, zbar-tools and poppler-utils."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("segno", reason="the [phones] extra (scripts/setup.sh installs it)")

from narrator.phones.server import PhoneServer  # noqa: E402
from narrator.phones.table import write_sheet  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

CHROMIUM, ZBARIMG, PDFTOPPM = shutil.which("chromium"), shutil.which("zbarimg"), shutil.which("pdftoppm")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not (CHROMIUM and ZBARIMG and PDFTOPPM),
                                 reason="scripts/setup.sh --test installs chromium, zbar-tools and poppler-utils")]

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-pings",
         "--disable-default-apps", "--mute-audio", "--host-resolver-rules=MAP * ~NOTFOUND")
"""Chromium offline: no host resolves, nothing of its own fetched."""


def chromium(tmp_path: Path, page: Path, *what: str) -> None:
    """Runs headless chromium on ``page`` (a file) to do ``what`` (a screenshot, a PDF), in a profile of its own."""
    subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *what, page.as_uri()],
                   check=True, capture_output=True, timeout=120)


def decoded(image: Path) -> set[str]:
    """Returns the text of every QR code zbar finds in ``image``."""
    result = subprocess.run([str(ZBARIMG), "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode in (0, 4), result.stderr  # 4: no code found, which the assertions then tell
    return {line for line in result.stdout.splitlines() if line}


@pytest.fixture
def sheet(tmp_path: Path) -> tuple[Path, set[str]]:
    """A table of 8's sheet of codes, in English with two names, and the 8 links it must hold."""
    server = PhoneServer(8, {}, bind="127.0.0.1").start()
    try:
        path = tmp_path / "links.html"
        write_sheet(server, path, load_voice("en"), ("Ann", "Ben") + (None,) * 6)
        return path, {server.link(seat) for seat in range(1, 9)}
    finally:
        server.stop()


def test_every_code_of_the_printed_sheet_scans_on_the_screen(tmp_path: Path, sheet: tuple[Path, set[str]]) -> None:
    page, links = sheet
    shot = tmp_path / "sheet.png"
    chromium(tmp_path, page, f"--screenshot={shot}", "--window-size=1240,1754")  # an A4 page at 150 dpi
    assert decoded(shot) == links


def test_every_code_of_the_printed_sheet_scans_on_paper(tmp_path: Path, sheet: tuple[Path, set[str]]) -> None:
    page, links = sheet
    pdf = tmp_path / "sheet.pdf"
    chromium(tmp_path, page, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    subprocess.run([str(PDFTOPPM), "-r", "150", "-png", str(pdf), str(tmp_path / "page")], check=True, timeout=120)
    found: set[str] = set()
    for image in sorted(tmp_path.glob("page*.png")):
        found |= decoded(image)
    assert found == links
