"""The page `sudoku-batch serve` serves at /, in a real browser (Debian's chromium,
headless, driven by chromedriver through Selenium): paste puzzles, press the button,
see the solved grids."""

import csv
import os
import re
import subprocess
import threading
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))


@pytest.fixture(scope="module")
def server():
    """The real binary on an ephemeral loopback port."""
    proc = subprocess.Popen(
        [str(BIN), "serve", "--listen", "127.0.0.1:0", "--threads", "2"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stderr.readline()
    match = re.search(r"http://(127\.0\.0\.1:\d+)", line)
    assert match, line
    # Keep draining stderr so that the server never blocks on it.
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    yield f"http://{match.group(1)}"
    proc.terminate()
    assert proc.wait(timeout=10) == 0


def kaggle_rows(n):
    with open(ROOT / "data" / "quizzes.csv", newline="") as f:
        rows = list(csv.DictReader(f))[:n]
    return [(r["quizzes"], r["solutions"]) for r in rows]


def cells_of(result):
    return [td for td in result.find_elements(By.CSS_SELECTOR, "table.grid td")]


def test_pasted_puzzles_are_shown_solved(server, browser):
    pairs = kaggle_rows(3)
    browser.get(server + "/")
    area = browser.find_element(By.ID, "puzzles")
    area.send_keys("\n".join(p for p, _ in pairs) + "\nnot a puzzle\n")
    browser.find_element(By.ID, "classify").click()
    results = WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#results .result")
    )
    assert len(results) == 4
    for result, (puzzle, solution) in zip(results, pairs):
        assert result.get_attribute("data-status") == "unique"
        cells = cells_of(result)
        assert "".join(td.text for td in cells) == solution
        givens = [i for i, ch in enumerate(puzzle) if ch in "123456789"]
        assert [i for i, td in enumerate(cells) if "given" in td.get_attribute("class")] == givens
    invalid = results[3]
    assert invalid.get_attribute("data-status") == "invalid"
    assert "bad byte 'n' at column 1" in invalid.text
    assert cells_of(invalid) == []
    browser.save_screenshot(str(ROOT / "target" / "serve-page.png"))


def test_an_empty_paste_says_so_without_a_request(server, browser):
    browser.get(server + "/")
    browser.find_element(By.ID, "solve").click()
    WebDriverWait(browser, 10).until(ready.text_to_be_present_in_element((By.ID, "error"), "Paste"))
    assert browser.find_elements(By.CSS_SELECTOR, "#results .result") == []
