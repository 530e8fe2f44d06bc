"""The referee gives combatants to pages, in a real browser.

tests/share_referee.c is a play window on ridge_ambush (SDL's dummy video
driver) sharing the battle; this script sends it the referee's keys (Ctrl+J
with a combatant selected) through its stdin while a headless Chromium page
waits in the lobby. It checks that the page shows its number, that Kara
given to it opens her card on the page, that Dren given next replaces her,
and that freeing Dren sends the page back to the list with every combatant
free. Every wait is bounded. Prints 'N passed, N failed'; exits 1 on any
failure and 77 (skipped) where Chromium, chromedriver or selenium is missing.
Usage: share_referee.py SHARE_REFEREE SRC
"""
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

try:
    import selenium  # noqa: F401
except ImportError:
    print("SKIPPED: needs python3-selenium (make deps)")
    sys.exit(77)
if not shutil.which("chromium") or not shutil.which("chromedriver"):
    print("SKIPPED: needs chromium and chromium-driver (make deps)")
    sys.exit(77)

REF, SRC = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hbpage import TIMEOUT, Tally, chromium, wait_for  # noqa: E402

tally = Tally()
check = tally.check


tmp = tempfile.mkdtemp(prefix="hb-referee-")
ref = driver = None
try:
    env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp)
    ref = subprocess.Popen([REF, os.path.join(SRC, "data"), os.path.join(SRC, "maps", "ridge_ambush.json")],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l.strip()) for l in ref.stdout], daemon=True).start()
    url = lines.get(timeout=TIMEOUT)
    check("url", url.startswith("http://127.0.0.1:") and "/?k=" in url, url)

    def referee(line):
        ref.stdin.write(line + "\n")
        ref.stdin.flush()
        return lines.get(timeout=TIMEOUT)

    driver = chromium(os.path.join(tmp, "p"))
    d = driver
    d.get(url)

    def js(code):
        return d.execute_script(code)

    def shown(part):
        return js(f"return !document.getElementById('{part}').hidden")

    def me():
        s = js("return window.hbPage.state")
        return s and s.get("me", {}).get("id")

    check("lobby_first", wait_for("the lobby", lambda: shown("lobby")))
    check("page_number", wait_for("the page's number", lambda: js(
        "return document.getElementById('page-no').textContent") == "Page 1"))

    said = referee("give kara")
    check("kara_given", "Page 1" in said, said)
    check("kara_on_page", wait_for("Kara's card on the page", lambda: shown("game") and me() == "kara"))
    check("kara_card", "Kara Voss" in js("return document.getElementById('card').textContent"))

    said = referee("give dren")
    check("dren_given", "Page 1" in said, said)
    check("dren_replaces_kara", wait_for("Dren's card on the page", lambda: shown("game") and me() == "dren"))

    said = referee("free dren")
    check("dren_freed", "free" in said, said)
    check("back_to_lobby", wait_for("the lobby again", lambda: shown("lobby")))
    check("all_free", wait_for("every combatant free in the list", lambda: js(
        "const b = [...document.querySelectorAll('#lobby-list button')];"
        "return b.length === 3 && b.every((x) => !x.disabled)")))

    ref.stdin.write("quit\n")
    ref.stdin.flush()
    try:
        rc = ref.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        rc = None
    check("referee_exits_0", rc == 0, str(rc))
finally:
    if driver:
        try:
            driver.quit()
        except Exception:
            pass
    if ref and ref.poll() is None:
        ref.kill()
        ref.wait()
    shutil.rmtree(tmp, ignore_errors=True)

tally.finish()
