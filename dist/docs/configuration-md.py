#!/usr/bin/env python3
"""Writes docs/configuration.md from the three defaults files (run from the repository root).
ConfigurationDocTest fails when the page and the files disagree, so run this after changing a key."""
import re, xml.etree.ElementTree as ET

FILES = [
    ("ResourceManager scheduler (`yarn-site.xml` on the RM; `hare simulate -D` too)",
     "src/main/resources/hare-default.xml"),
    ("Job specs (`hare submit JOB.xml`, `-D`)", "src/main/resources/hare-app-default.xml"),
    ("Simulator (`hare simulate -D`)", "src/main/resources/hare-sim-default.xml"),
]

def cell(s):
    s = re.sub(r"\s+", " ", (s or "").strip())
    return s.replace("|", "\\|")

out = ["# Every configuration key", "",
       "Generated from the defaults files by `dist/docs/configuration-md.py`; "
       "`ConfigurationDocTest` keeps this page and the files in step. (none): unset; required "
       "keys say so.", ""]
for title, path in FILES:
    out += ["## " + title, "", "From `" + path + "`.", "", "| key | default | meaning |",
            "|---|---|---|"]
    for p in ET.parse(path).getroot().iter("property"):
        v = cell(p.findtext("value"))
        out.append("| `%s` | %s | %s |" % (cell(p.findtext("name")), "`%s`" % v if v else "(none)",
                                            cell(p.findtext("description"))))
    out.append("")
open("docs/configuration.md", "w").write("\n".join(out))
