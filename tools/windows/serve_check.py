#!/usr/bin/env python3
"""serve_check.py DIR SRC [--page-only] - the players' server of the Windows
build, run under Wine and talked to from Linux as a phone would (make
test-windows, through serve_check.sh, which sets up Wine).

`DIR/hexbattle.exe serve SRC/maps/ridge_ambush.json` listens on loopback
(HEXBATTLE_SHARE_BIND); from here, over TCP: the first line on its stdout is
the join address; the page's files come back byte for byte as they are in
SRC/assets/share; the lobby answers only with the secret; a page joins Kara,
reads her picture from the event stream, moves her to a hex her picture says
she reaches, and sees the next picture put her there; wrong tokens, bad JSON
and an unreachable hex are refused with the status the protocol gives
(docs/sharing.md); a Ctrl+C (SIGINT, which Wine turns into the console's
Ctrl+C event) stops it with status 0, and its log holds Kara's move.
--page-only: the start, the page and the stop (the zip's own check).
--lan: as --page-only, listening on every interface (no
HEXBATTLE_SHARE_BIND): the address is the machine's own IPv4 address (from
the system's list of adapters) and the page is fetched there.
Prints one line per check; exit 0 when all hold.
"""
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

WINE_START_S = 60  # a first Wine start in a new prefix takes a while
ANSWER_S = 10

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))
    return ok


HOST = "127.0.0.1"


def http(port, method, path, body=None):
    """(status, content type, bytes) of one request; status 0 when none came."""
    req = urllib.request.Request(f"http://{HOST}:{port}{path}", method=method,
                                 data=body.encode() if isinstance(body, str) else body)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=ANSWER_S) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()
    except (OSError, urllib.error.URLError) as e:
        return 0, "", str(e).encode()


def post(port, path, obj):
    st, _, raw = http(port, "POST", path, obj if isinstance(obj, str) else json.dumps(obj))
    try:
        return st, json.loads(raw)
    except ValueError:
        return st, {"raw": raw.decode(errors="replace")}


class Stream:
    """The page's event stream: HTTP/1.0, so the body is the raw stream."""

    def __init__(self, port, token):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_S)
        self.sock.sendall(f"GET /api/events?t={token} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.buf = b""
        self.head = None

    def next_state(self, until):
        """The next picture (a dict), or None when none comes before until."""
        while time.monotonic() < until:
            if self.head is None and b"\r\n\r\n" in self.buf:
                self.head, self.buf = self.buf.split(b"\r\n\r\n", 1)
            if self.head is not None and b"\n\n" in self.buf:
                ev, self.buf = self.buf.split(b"\n\n", 1)
                for line in ev.split(b"\n"):
                    if line.startswith(b"data: "):
                        return json.loads(line[6:])
                continue
            self.sock.settimeout(max(0.05, until - time.monotonic()))
            try:
                got = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not got:
                return None
            self.buf += got
        return None

    def close(self):
        self.sock.close()


def unit_at(state, uid):
    for u in state.get("units", []):
        if u.get("id") == uid:
            return u.get("at")
    return None


def play(port, secret, src, log):
    """Lobby, join, picture, a move and the refusals."""
    st, _, raw = http(port, "GET", "/api/lobby")
    check("the lobby without the secret: 403", st == 403, f"status {st}")
    check("the lobby without the secret names no one", b"kara" not in raw, raw[:200])
    st, lobby = post(port, "/api/join", {"k": "0" * 32, "id": "kara"})
    check("a join with a wrong secret: 403", st == 403, f"status {st} {lobby}")
    st, _, raw = http(port, "GET", f"/api/lobby?k={secret}")
    lobby = json.loads(raw) if st == 200 else {}
    with open(os.path.join(src, "maps", "ridge_ambush.json"), encoding="utf-8") as f:
        m = json.load(f)
    players = sorted(c["id"] for c in m["combatants"] if c.get("faction") == "players")
    check("the lobby lists the map's player-side combatants, all free",
          st == 200 and lobby.get("type") == "lobby" and
          sorted(p["id"] for p in lobby.get("players", [])) == players and
          not any(p.get("taken") for p in lobby.get("players", [])), f"status {st} {lobby}")
    st, joined = post(port, "/api/join", {"k": secret, "id": "kara"})
    token = joined.get("token", "")
    if not check("Kara joined: a token", st == 200 and re.fullmatch(r"[0-9a-f]{32}", token or "")
                 and joined.get("id") == "kara", f"status {st} {joined}"):
        return
    st, again = post(port, "/api/join", {"k": secret, "id": "kara"})
    check("Kara joined twice: 409", st == 409, f"status {st} {again}")
    st, _, raw = http(port, "GET", f"/api/lobby?k={secret}")
    lobby = json.loads(raw) if st == 200 else {}
    check("the lobby says Kara is taken",
          any(p["id"] == "kara" and p.get("taken") for p in lobby.get("players", [])), lobby)

    stream = Stream(port, token)
    try:
        # Kara has the initiative at serve's seed: her picture lets her act.
        end = time.monotonic() + ANSWER_S
        state = stream.next_state(end)
        while state is not None and not state.get("me", {}).get("acts"):
            state = stream.next_state(end)
        if not check("Kara's picture: her card, her turn, her legal actions",
                     state is not None and state.get("type") == "state" and
                     state.get("me", {}).get("id") == "kara" and state["me"].get("legal"),
                     str(state)[:300]):
            return
        here = unit_at(state, "kara")
        start = next(c["at"] for c in m["combatants"] if c["id"] == "kara")
        check(f"Kara's picture: she stands where the map puts her, {start}", here == start, here)
        moves = [a for a in state["me"]["legal"] if "reach" in a and a["reach"]]
        if not check("Kara's picture: a move mode and the hexes it reaches", moves, state["me"]):
            return
        mode = moves[0]["mode"]
        reach = [c for c in moves[0]["reach"] if c != here]
        to = reach[-1]
        cells = {tuple(c) for mv in moves for c in mv["reach"]}
        cols, rows = state["map"]["cols"], state["map"]["rows"]
        far = next(([c, r] for r in range(rows) for c in range(cols) if (c, r) not in cells
                    and [c, r] != here), None)

        st, ans = post(port, "/api/cmd", {"t": "f" * 32, "move": {"mode": mode, "to": to}})
        check("a move with a stranger's token: 403", st == 403 and "error" in ans, f"{st} {ans}")
        st, ans = post(port, "/api/cmd", '{"t": "' + token + '", "move": ')
        check("a malformed message: 400", st == 400 and "error" in ans, f"{st} {ans}")
        st, ans = post(port, "/api/cmd", {"t": token, "move": {"mode": mode, "to": far}})
        check("a move to a hex out of reach: 409", st == 409 and "error" in ans, f"{st} {ans}")
        st, ans = post(port, "/api/cmd", {"t": token, "move": {"mode": mode, "to": to}})
        check(f"Kara moves to {to}: taken", st == 200 and ans.get("ok") is True, f"{st} {ans}")
        end = time.monotonic() + ANSWER_S
        state = stream.next_state(end)
        while state is not None and unit_at(state, "kara") != to:
            state = stream.next_state(end)
        check(f"the next picture has Kara on {to}", state is not None, f"last {unit_at(state or {}, 'kara')}")
    finally:
        stream.close()
    log["to"] = to


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    global HOST
    lan = "--lan" in sys.argv
    page_only = "--page-only" in sys.argv or lan
    exe_dir, src = args[0], args[1]
    env = dict(os.environ, HEXBATTLE_SHARE_BIND="loopback")
    if lan:
        del env["HEXBATTLE_SHARE_BIND"]
    err_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"serve_check.{os.getpid()}.err")
    with open(err_path, "wb") as err:
        p = subprocess.Popen(["wine64", "./hexbattle.exe", "serve", os.path.join(src, "maps", "ridge_ambush.json")],
                             cwd=exe_dir, env=env, stdout=subprocess.PIPE, stderr=err)
    out = b""
    log = {}
    try:
        end = time.monotonic() + WINE_START_S
        while b"\n" not in out and time.monotonic() < end and p.poll() is None:
            r, _, _ = select.select([p.stdout], [], [], 0.5)
            if r:
                out += os.read(p.stdout.fileno(), 65536)
        first = out.split(b"\n", 1)[0].decode(errors="replace").rstrip("\r")
        host = r"(\d+\.\d+\.\d+\.\d+)" if lan else r"(127\.0\.0\.1)"
        m = re.fullmatch(r"http://" + host + r":(\d+)/\?k=([0-9a-f]{32})", first)
        if check("serve's first line is the join address", m is not None, repr(first)):
            HOST, port, secret = m.group(1), int(m.group(2)), m.group(3)
            if lan:
                mine = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
                mine = [a for a in mine if "." in a] or ["127.0.0.1"]
                check(f"listening on every interface: the address {HOST} is one of this machine's {mine}",
                      HOST in mine, HOST)
            for url, name in (("/", "index.html"), ("/share.js", "share.js"), ("/share.css", "share.css")):
                st, ctype, body = http(port, "GET", url)
                with open(os.path.join(src, "assets", "share", name), "rb") as f:
                    want = f.read()
                check(f"GET {url}: 200, {name} byte for byte", st == 200 and body == want,
                      f"status {st}, {len(body)} bytes, want {len(want)}")
            if not page_only:
                play(port, secret, src, log)
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)  # Wine: the console's Ctrl+C event
        try:
            rest, _ = p.communicate(timeout=20)
            out += rest
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
    check("Ctrl+C stops it with status 0", p.returncode == 0, f"status {p.returncode}")
    with open(err_path, "rb") as f:
        err_text = f.read().decode(errors="replace")
    os.unlink(err_path)
    check("it says it stopped sharing", "sharing stopped" in err_text, err_text[-300:])
    if "to" in log:
        steps = [json.loads(l) for l in out.decode(errors="replace").splitlines()[1:]
                 if l.strip().startswith("{")]
        check("serve's log has Kara's move ending on the hex",
              any(e.get("event") == "move_step" and e.get("id") == "kara" and e.get("to") == log["to"]
                  for e in steps), f"{len(steps)} events")
    print(f"serve_check: {passed} hold, {failed} fail")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
