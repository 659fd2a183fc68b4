#!/usr/bin/python3
"""webreport_dom.py DOM DIR: check the report page's DOM, as headless
Chromium dumped it after loading DIR/index.html (t_webreport.sh), against
the results folder DIR's own files.  Prints one line per check,
"ok NAME" or "FAIL NAME: why"; the shell counts them.

The truth is read here with Python's csv and json modules and the PNG
files' own headers, not with anything hoplab computed:

- every CSV file at DIR's top is a table with data-file=NAME whose
  header is the file's header and whose rows are the file's first rows
  (at most MAX_ROWS), cell by cell, as text (so an escaped "<" is "<");
- hops.csv's rows with a flag are marked class=flagged, the others not;
- every plots/*.png is an <img src=plots/NAME> that the browser loaded:
  data-loaded=yes and data-width the width in the PNG's IHDR;
- no src or href leaves the folder (no scheme, no absolute path), no
  <script> but the page's one, no element a file's text could have made
  (id=evil, from the test's evil.csv);
- run.json's status and every host's name are in the Run section.
"""
import csv
import html.parser
import json
import os
import re
import struct
import sys

MAX_ROWS = 500


class Dom(html.parser.HTMLParser):
    """Tables (data-file -> header, rows, row classes), images, links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables = {}
        self.images = []
        self.urls = []
        self.ids = set()
        self.scripts = 0
        self.run_text = []
        self._table = None
        self._row = None
        self._cell = None
        self._in_run = 0
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self._depth += 1
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "section" and a.get("id") == "run":
            self._in_run = self._depth
        for k in ("src", "href"):
            if k in a:
                self.urls.append(a[k])
        if tag == "script":
            self.scripts += 1
        if tag == "img":
            self.images.append(a)
        if tag == "table" and "data-file" in a:
            self._table = {"head": [], "rows": [], "classes": []}
            self.tables[a["data-file"]] = self._table
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._row_class = a.get("class", "")
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if self._in_run == self._depth and tag == "section":
            self._in_run = 0
        self._depth -= 1
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            t = self._table
            if not t["head"]:
                t["head"] = self._row
            else:
                t["rows"].append(self._row)
                t["classes"].append(self._row_class)
            self._row = None
        elif tag == "table" and self._table is not None:
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._in_run:
            self.run_text.append(data)


def check(name, ok, why=""):
    print(("ok %s" % name) if ok else ("FAIL %s: %s" % (name, why)))


def png_width(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">I", head[16:20])[0]


def check_tables(dom, d):
    names = sorted(n for n in os.listdir(d) if n.endswith(".csv") and
                   os.path.isfile(os.path.join(d, n)))
    for n in names:
        with open(os.path.join(d, n), newline="") as f:
            rows = list(csv.reader(f))
        t = dom.tables.get(n)
        if t is None:
            check("table_" + n, False, "no table with data-file=" + n)
            continue
        want = rows[1:1 + MAX_ROWS]
        if t["head"] != rows[0]:
            check("table_" + n, False, "header %r" % t["head"][:5])
        elif t["rows"] != want:
            bad = next((i for i, (x, y) in enumerate(zip(t["rows"], want))
                        if x != y), min(len(t["rows"]), len(want)))
            check("table_" + n, False, "%d rows shown, %d wanted; row %d "
                  "differs" % (len(t["rows"]), len(want), bad + 1))
        else:
            check("table_" + n, True)
    extra = set(dom.tables) - set(names)
    check("no_other_tables", not extra, "tables of no file: %s" % extra)
    return names


def check_flags(dom, d):
    t = dom.tables.get("hops.csv")
    if t is None:
        return
    col = t["head"].index("flags")
    want = ["flagged" if r[col] else "" for r in t["rows"]]
    check("hops_flagged_rows", t["classes"] == want and any(want),
          "classes %s, flags %s" % (t["classes"], want))


def check_images(dom, d):
    pdir = os.path.join(d, "plots")
    pngs = sorted(n for n in os.listdir(pdir) if n.endswith(".png"))
    by_src = {i.get("src"): i for i in dom.images}
    for n in pngs:
        img = by_src.get("plots/" + n)
        w = png_width(os.path.join(pdir, n))
        if img is None:
            check("img_" + n, False, "no <img src=plots/%s>" % n)
        elif img.get("data-loaded") != "yes" or \
                img.get("data-width") != str(w):
            check("img_" + n, False, "data-loaded=%s data-width=%s, the "
                  "PNG's width %s" % (img.get("data-loaded"),
                                      img.get("data-width"), w))
        else:
            check("img_" + n, True)
    check("no_other_images", len(dom.images) == len(pngs),
          "%d images, %d PNG files" % (len(dom.images), len(pngs)))
    return pngs


def check_offline(dom):
    far = [u for u in dom.urls if re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*:|/)",
                                           u)]
    check("offline_urls", not far, "leaves the folder: %s" % far[:3])
    check("one_script", dom.scripts == 1, "%d scripts" % dom.scripts)
    check("text_escaped", "evil" not in dom.ids, "a file made an element")


def check_run(dom, d):
    with open(os.path.join(d, "run.json")) as f:
        run = json.load(f)
    text = " ".join(dom.run_text)
    want = [run["status"]] + [h["name"] for h in run["hosts"]]
    missing = [w for w in want if w not in text]
    check("run_json_shown", not missing and len(want) > 2,
          "not in the Run section: %s" % missing)


def main():
    dom = Dom()
    with open(sys.argv[1], encoding="utf-8") as f:
        dom.feed(f.read())
    d = sys.argv[2]
    names = check_tables(dom, d)
    check_flags(dom, d)
    pngs = check_images(dom, d)
    check_offline(dom)
    check_run(dom, d)
    print("# %d tables, %d images" % (len(names), len(pngs)))


main()
