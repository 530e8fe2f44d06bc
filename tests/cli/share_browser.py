"""A real browser on the players' page (tests/cli/share_browser.sh runs it).

hexbattle serve shares a copy of ridge_ambush with a raider sniper added where
the players cannot see it. Two headless Chromium pages join as two players;
the test checks that nothing either page received names the sniper, has
Kara strike a raider next to her from her page and sees the attack animate
on both pages, moves Kara by clicking a hex on Kara's page, and waits
(bounded) for the move on Dren's page and in the server's own battle (its
event lines on stdout).
Prints 'N passed, N failed'; exits 1 on any failure.
"""
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

HB, SRC = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from hbpage import TIMEOUT, Tally, chromium, wait_for  # noqa: E402

tally = Tally()
check = tally.check


tmp = tempfile.mkdtemp(prefix="hb-share-")
procs, drivers = [], []
try:
    with open(os.path.join(SRC, "maps", "ridge_ambush.json")) as f:
        m = json.load(f)
    # Inside the walled house on the east side, door shut: out of the
    # players' sight at the start.
    m["combatants"].append({"id": "sniper", "name": "Ridge Sniper", "faction": "raiders",
                            "at": [22, 11], "template": "brute", "hp": 20})
    # In plain sight next to Kara, for her knife: an attack to animate.
    m["combatants"].append({"id": "thug", "name": "Raider Thug", "faction": "raiders",
                            "at": [2, 12], "template": "skitter"})
    map_path = os.path.join(tmp, "ridge_sniper.json")
    with open(map_path, "w") as f:
        json.dump(m, f)

    env = dict(os.environ, HEXBATTLE_SHARE_BIND="loopback", HEXBATTLE_DATA=os.path.join(SRC, "data"))
    srv = subprocess.Popen([HB, "serve", map_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env)
    procs.append(srv)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in srv.stdout], daemon=True).start()
    url = lines.get(timeout=TIMEOUT).strip()
    check("url_first_line", url.startswith("http://127.0.0.1:") and "/?k=" in url, url)
    check("secret_128_bits", len(url.split("k=")[1]) == 32, url)
    events = []

    def drain():
        while True:
            try:
                events.append(json.loads(lines.get_nowait()))
            except queue.Empty:
                return events

    def browser(n):
        d = chromium(os.path.join(tmp, f"profile{n}"))
        drivers.append(d)
        return d

    def join(d, who):
        d.get(url)
        btn = wait_for(f"the lobby's button for {who}",
                       lambda: [b for b in d.find_elements(By.CSS_SELECTOR, "#lobby-list button")
                                if b.text.startswith(who)])
        if not btn:
            return False
        btn[0].click()
        return wait_for(f"{who}'s first picture",
                        lambda: d.execute_script("return window.hbPage.state !== null"))

    def state(d):
        return d.execute_script("return window.hbPage.state")

    kara, dren = browser(1), browser(2)
    check("kara_joins", join(kara, "Kara"))
    check("dren_joins", join(dren, "Dren"))

    # The premise: the sniper is in the battle (the referee's log names it)
    # and stands where the players do not see.
    wait_for("the setup's events", lambda: any(e.get("event") == "turn_start" for e in drain()))
    check("sniper_in_battle", any(e.get("id") == "sniper" for e in events))
    s = state(kara)
    cols = s["map"]["cols"]
    check("sniper_hex_unseen", s["map"]["fog"][11 * cols + 22] != "2", s["map"]["fog"][11 * cols + 22])
    check("players_see_own", {u["id"] for u in s["units"] if u["own"]} >= {"kara", "dren", "ilsa"})

    # Kara acts first under the serve seed.
    check("kara_acts", s["me"]["acts"], json.dumps(s["turn"]))

    # Her knife strikes the thug: both pages animate the attack (a lunge
    # drawn on the map, then "hit" or "miss" floating over the thug as a
    # page element, gone when its animation ends).
    watch_fx = """window.hbSawFx = [];
        new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
            if (n.className) window.hbSawFx.push(n.className); })
        .observe(document.getElementById('fx'), { childList: true });"""
    for d in (kara, dren):
        d.execute_script(watch_fx)
    btn = [b for b in kara.find_elements(By.CSS_SELECTOR, "#actions button")
           if b.text.startswith("Attack: Hook Knife at Raider Thug")]
    check("kara_may_attack", bool(btn))
    if btn:
        btn[0].click()
        for name, d in (("kara", kara), ("dren", dren)):
            got = wait_for(f"the attack's effect on {name}'s page", lambda: d.execute_script(
                "return window.hbSawFx.filter((c) => /\\bfx-(hit|miss)\\b/.test(c))"))
            check(f"attack_animates_on_{name}", bool(got), str(got))
            played = d.execute_script("return window.hbPage.fxPlayed") or []
            check(f"attack_lunge_on_{name}", {"kind": "lunge", "id": "kara"} in played, str(played))
        check("attack_effects_end", wait_for("the effects to end", lambda: dren.execute_script(
            "return document.querySelectorAll('#fx .fx').length === 0")))
        check("attack_in_battle", wait_for("the attack in the server's battle", lambda: any(
            e.get("event") == "attack" and e.get("attacker") == "kara" for e in drain())))
        wait_for("the attack on Kara's page", lambda: any(
            e.get("event") == "attack" for e in (state(kara) or {}).get("log", [])))
        s = state(kara)

    # Then a move: click a reachable hex on her page.
    reach = next(l["reach"] for l in s["me"]["legal"] if "reach" in l)
    start = next(u["at"] for u in s["units"] if u["id"] == "kara")
    goal = max(reach, key=lambda c: abs(c[0] - start[0]) + abs(c[1] - start[1]))
    canvas = kara.find_element(By.ID, "board")
    p = kara.execute_script("return window.hbPage.cellCenter(arguments[0], arguments[1])", *goal)
    size = canvas.size
    ActionChains(kara).move_to_element_with_offset(
        canvas, int(p["x"] - size["width"] / 2), int(p["y"] - size["height"] / 2)).click().perform()

    def kara_at(d):
        st = state(d)
        return st and any(u["id"] == "kara" and u["at"] == goal for u in st["units"])

    check("move_on_dren_page", wait_for("the move on Dren's page", lambda: kara_at(dren)), str(goal))
    check("move_on_kara_page", wait_for("the move on Kara's page", lambda: kara_at(kara)), str(goal))
    check("move_in_battle", wait_for("the move in the server's battle", lambda: any(
        e.get("event") == "move_step" and e.get("id") == "kara" and e.get("to") == goal
        for e in drain())), str(goal))

    # Give the AI a moment to act too, then look at everything each page got.
    time.sleep(1.5)
    for name, d in (("kara", kara), ("dren", dren)):
        got = d.execute_script("return window.hbPage.received")
        check(f"{name}_received_pictures", len(got) >= 2, str(len(got)))
        text = "\n".join(got)
        check(f"{name}_never_sniper_id", '"sniper"' not in text)
        check(f"{name}_never_sniper_name", "Ridge Sniper" not in text)

    # Without the secret: the lobby names nothing.
    bad = browser(3)
    bad.get(url.split("?")[0] + "?k=" + "0" * 32)
    check("wrong_secret_asks", wait_for("the code form", lambda: bad.find_element(By.ID, "ask").is_displayed()))
    got = "\n".join(bad.execute_script("return window.hbPage.received"))
    check("wrong_secret_names_nothing", "Kara" not in got and "Ridge" not in got, got)

    srv.send_signal(signal.SIGTERM)
    try:
        rc = srv.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        rc = None
    check("serve_exits_0", rc == 0, str(rc))
finally:
    for d in drivers:
        try:
            d.quit()
        except Exception:
            pass
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
    shutil.rmtree(tmp, ignore_errors=True)

tally.finish()
