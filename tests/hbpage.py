"""What the tests of the players' page in a real browser share
(tests/cli/share_browser.py, tests/share_referee.py): a tally of named
checks, a bounded wait, and a headless Chromium driven through chromedriver.
"""
import os
import shutil
import sys
import time

TIMEOUT = 20.0  # seconds, for each wait


class Tally:
    """Named checks: a failure is printed at once; finish() prints
    'N passed, N failed' and exits 1 on any failure."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}", flush=True)

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        sys.exit(1 if self.failed else 0)


def wait_for(what, fn, timeout=TIMEOUT):
    """fn() until truthy, at most timeout seconds, polling 10 times a second."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.1)
    print(f"timed out waiting for {what}", flush=True)
    return None


def chromium(profile, timeout=TIMEOUT):
    """A headless Chromium with its own profile folder, 1200x800, no
    network of its own (updates, sync, QUIC) beyond what the page asks."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    o = Options()
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", "--window-size=1200,800", "--user-data-dir=" + profile]:
        o.add_argument(a)
    o.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    d = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                         options=o)
    d.set_page_load_timeout(timeout)
    d.set_script_timeout(timeout)
    return d
