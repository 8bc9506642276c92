#!/usr/bin/env python3
"""The seller's dashboard in a real browser: Debian's headless Chromium driven over WebDriver
(chromedriver, spoken to with the standard library alone), on loopback only.

  dashboard.py URL TOKEN_FILE OUT_DIR [QUERY [CUSTOMER FIND]]

Opens URL, signs in with the admin token (typed into the page's form, as a person would), then
for each page (overview, subscriptions, players, products, refunds, notifications) at 1280x800 and at 375x800: a screenshot
OUT_DIR/<page>-<width>.png, and the page's tables (each page for QUERY's range, default days=30); then
every page again in the dark colour scheme (<page>-<width>-dark.png). With CUSTOMER (an account id)
and FIND (a search), the customers page too: FIND's matches ("customers") and CUSTOMER's story ("customer"). Prints one JSON object: for
each page its title, every table (id -> rows of cell texts), the document's width against the
window's (does it fit), the words broken across lines and the text clipped, and whether a script
ran or any request left for another host (the CSP holds). Exits 1
when the browser cannot be driven or the sign-in fails.
"""
import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

URL, TOKEN_FILE, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
QUERY = sys.argv[4] if len(sys.argv) > 4 else "days=30"
CUSTOMER, FIND = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else (None, None)
VISITS = [(page, f"{page}?{QUERY}") for page in ["overview", "subscriptions", "players", "products", "refunds", "notifications"]]
if CUSTOMER:
    VISITS += [("customers", f"customers?q={urllib.parse.quote(FIND)}"), ("customer", f"customers?account={CUSTOMER}")]
TOKEN = open(TOKEN_FILE).read().strip()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
driver = subprocess.Popen(["chromedriver", f"--port={PORT}", "--allowed-ips=127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def call(method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)["value"]


def fail(message):
    print(json.dumps({"failed": message}))
    driver.kill()
    sys.exit(1)


try:
    def until(condition, what, seconds=10):
        """Waits for `condition` (polled), failing with `what` past the deadline."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if condition():
                    return
            except OSError:
                pass
            time.sleep(0.05)
        fail(what)

    until(lambda: call("GET", "/status") is not None, "chromedriver did not start")
    pages = {}

    def browse(dark):
        """Signs in and visits every page, in the light or dark colour scheme."""
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800"] + (["--force-dark-mode"] if dark else [])
        session = call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args},
        }}})["sessionId"]
        base = f"/session/{session}"

        def go(url):
            call("POST", base + "/url", {"url": url})

        def script(source):
            return call("POST", base + "/execute/sync", {"script": source, "args": []})

        go(URL + "/")
        field = call("POST", base + "/element", {"using": "css selector", "value": "#token"})
        call("POST", base + f"/element/{list(field.values())[0]}/value", {"text": TOKEN})
        button = list(call("POST", base + "/element", {"using": "css selector", "value": "button[type=submit]"}).values())[0]
        call("POST", base + f"/element/{button}/click", {})
        until(lambda: "/overview" in call("GET", base + "/url"), "the sign-in did not reach the overview")
        for page, path in VISITS:
            for width in (1280, 375):
                call("POST", base + "/window/rect", {"width": width, "height": 800})
                go(f"{URL}/{path}")
                name = f"{page}-{width}" + ("-dark" if dark else "")
                with open(os.path.join(OUT, name + ".png"), "wb") as f:
                    f.write(base64.b64decode(call("GET", base + "/screenshot")))
                pages[name] = script("""
                    const tables = {};
                    for (const table of document.querySelectorAll('table')) {
                      tables[table.id] = [...table.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => c.textContent));
                    }
                    // Words broken across lines (a word's boxes on two lines), and text clipped: an
                    // SVG label past its drawing's edges, a cell whose text overflows its box.
                    const broken = [];
                    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                    while (walker.nextNode()) {
                      const node = walker.currentNode;
                      if (node.parentElement.closest('svg, style, script, option, select')) continue;
                      for (const match of node.textContent.matchAll(/\\S{2,}/g)) {
                        const range = document.createRange();
                        range.setStart(node, match.index);
                        range.setEnd(node, match.index + match[0].length);
                        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                        if (tops.size > 1) broken.push(match[0]);
                      }
                    }
                    const clipped = [];
                    for (const svg of document.querySelectorAll('svg.chart')) {
                      const box = svg.viewBox.baseVal;
                      for (const text of svg.querySelectorAll('text')) {
                        const b = text.getBBox();
                        if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5 || b.y < box.y - 0.5 || b.y + b.height > box.y + box.height + 0.5) clipped.push(text.textContent);
                      }
                    }
                    for (const cell of document.querySelectorAll('td, th')) {
                      if (cell.scrollWidth > cell.clientWidth + 1) clipped.push(cell.textContent);
                    }
                    return {title: document.title, tables, broken, clipped,
                            fits: document.documentElement.scrollWidth <= window.innerWidth + 1,
                            charts: document.querySelectorAll('svg.chart').length,
                            scripts: document.scripts.length,
                            background: getComputedStyle(document.body).backgroundColor};
                """)
        call("DELETE", base)

    browse(dark=False)
    browse(dark=True)
    print(json.dumps({"pages": pages}))
finally:
    driver.kill()
