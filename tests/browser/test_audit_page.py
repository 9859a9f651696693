"""The page `sudoku-batch audit -o` writes, in a real browser (Debian's chromium,
headless, through Selenium): the verdict on top, every chart drawn (bars with a height,
inside the page's width), nothing loaded from a network, and a screenshot that holds the
charts' colour."""

import os
import struct
import subprocess
import zlib
from pathlib import Path

from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))


def png_pixels(png):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, decoded here."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width, height, kind = 8, b"", 0, 0, 0
    while at < len(png):
        length, name = struct.unpack(">I4s", png[at : at + 8])
        body = png[at + 8 : at + 8 + length]
        if name == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6)
        elif name == b"IDAT":
            idat += body
        at += 12 + length
    size = 3 if kind == 2 else 4
    raw, rows, previous = zlib.decompress(idat), [], bytearray(width * size)
    stride = width * size + 1
    for y in range(height):
        line = raw[y * stride : (y + 1) * stride]
        f, row = line[0], bytearray(line[1:])
        for i in range(len(row)):
            a = row[i - size] if i >= size else 0
            b = previous[i]
            c = previous[i - size] if i >= size else 0
            if f == 1:
                row[i] = (row[i] + a) & 255
            elif f == 2:
                row[i] = (row[i] + b) & 255
            elif f == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(row))
        previous = row
    return width, height, size, rows


def test_the_audit_page_draws_its_charts(browser, tmp_path):
    page = tmp_path / "audit.html"
    subprocess.run(
        [str(BIN), "audit", str(ROOT / "data" / "easy-50.txt"), "--grade", "-q", "-o", str(page)],
        check=True,
    )
    browser.set_window_size(900, 2000)
    browser.get(page.as_uri())
    verdict = browser.find_element(By.CSS_SELECTOR, "section.verdict")
    assert "Not sound" in verdict.text and "lines 9, 41" in verdict.text
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) == 5
    width = browser.execute_script("return document.documentElement.clientWidth")
    for chart in charts:
        box = chart.rect
        assert 0 < box["width"] <= width and box["height"] > 100, box
        bars = chart.find_elements(By.CSS_SELECTOR, "rect.bar")
        drawn = [b for b in bars if b.rect["height"] > 0]
        assert drawn, chart.get_attribute("aria-label")
    # Nothing but the page itself was loaded.
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert resources == []
    # The screenshot holds the bars' colour (#3b6fb6), so they were painted.
    w, h, size, rows = png_pixels(browser.get_screenshot_as_png())
    bar = bytes([0x3B, 0x6F, 0xB6])
    painted = sum(
        1 for row in rows for x in range(0, w * size, size) if row[x : x + 3] == bar
    )
    assert painted > 2000, painted
