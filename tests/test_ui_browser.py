"""The research chat in a real browser: Debian's Chromium, headless, driven by Playwright, on the
chat a real ``prp serve`` process serves.

Asks a question, clicks a citation marker in the answer and checks that the evidence panel shows
the quoted span highlighted and the PDF page with the cited block framed. Screenshots are saved
under ``test-artifacts/ui/``. Every request the page makes must stay on the loopback address.
Skips when /usr/bin/chromium is absent (``.ci/run`` installs it); Playwright's own browser
download is never used.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from corpus.config import Settings
from corpus.library import Library
from ui.chat.page_image import STROKE

from .paths import ROOT, SAMPLE_DOCS
from .served import start, stop

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "ui"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
QUESTION = "How much do green roofs cool the street?"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium not installed (apt-get install chromium; .ci/run does it)"
)


@pytest.fixture(scope="module")
def url(tmp_path_factory, models_dir, embedder) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("browser")
    with Library(Settings(PRP_DATA_DIR=data_dir, PRP_MODELS_DIR=models_dir), embedder=embedder) as library:
        library.ingest([SAMPLE_DOCS])
    process, address, _ = start(data_dir, models_dir)
    try:
        yield f"{address}/chat/"
    finally:
        stop(process)


@pytest.fixture
def page(url):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    external: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})

        def keep_local(route):
            if re.match(r"^(https?://(127\.0\.0\.1|localhost)[:/]|data:|blob:)", route.request.url):
                route.continue_()
            else:
                external.append(route.request.url)
                route.abort()

        page.route("**/*", keep_local)
        page.goto(url, wait_until="load")
        page.locator("#prp-message textarea").wait_for(timeout=30_000)
        yield page
        browser.close()
    assert not external, f"the page tried to reach other hosts: {external}"


def test_ask_click_a_citation_and_see_it_on_the_page(page):
    assert "offline mode" in page.locator("#prp-mode").inner_text()
    page.locator("#prp-message textarea").fill(QUESTION)
    page.locator("#prp-run").click()
    marker = page.locator("#prp-chat a.prp-cite", has_text="[2]").first
    marker.wait_for(timeout=120_000)
    page.screenshot(path=str(ARTIFACTS / "1-answer.png"))

    marker.click()
    header = page.locator("#prp-ev-header")
    header.filter(has_text="[2]").wait_for(timeout=30_000)
    image = page.locator("#prp-page-image img")
    image.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(
        "() => { const i = document.querySelector('#prp-page-image img'); return i && i.complete && i.naturalWidth > 300; }",
        timeout=30_000,
    )
    assert "How Much Do Green Roofs Cool the Street?" in header.inner_text()
    assert "page" in header.inner_text()
    highlighted = page.locator("#prp-passage mark").inner_text()
    assert len(highlighted.split()) >= 5

    page.locator("#prp-evidence").scroll_into_view_if_needed()
    image.screenshot(path=str(ARTIFACTS / "3-page-image.png"))
    pixels = np.asarray(Image.open(ARTIFACTS / "3-page-image.png").convert("RGB"), dtype=np.int16)
    framed = int((np.abs(pixels - np.array(STROKE)).max(axis=2) < 50).sum())
    assert framed > 200, "the cited block's frame is not visible on the page image"
    page.screenshot(path=str(ARTIFACTS / "2-citation.png"), full_page=True)

    page.get_by_role("tab", name="Library").click()
    page.locator("#prp-library-table").get_by_text("Policy Brief 2023-04").wait_for(timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / "4-library.png"))
    print(f"screenshots: {ARTIFACTS}")
