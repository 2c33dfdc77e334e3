"""Loads a page in headless Chromium and checks the colours on screen.

screenshot.py PAGE_URL OUT.png WIDTH,HEIGHT CHECK [CHECK ...]

A CHECK is "#rrggbb>=N" (at least N pixels of exactly that colour) or
"#rrggbb==N". Prints "#rrggbb: ok" or what was found instead, one line per
check. Fails, saying how to install it, when Chromium is missing: the
report's browser test must never pass without a browser.
"""
import os
import re
import shutil
import subprocess
import sys

import matplotlib.image

url, output, size = sys.argv[1], sys.argv[2], sys.argv[3]
browser = shutil.which("chromium")
if browser is None:
    sys.exit("error: chromium is not installed; the HTML report test needs "
             "Debian's chromium package (scripts/install-deps.sh installs it)")
command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
           "--force-color-profile=srgb", "--hide-scrollbars",
           "--user-data-dir=" + output + ".profile", "--window-size=" + size,
           "--screenshot=" + output, url]
result = subprocess.run(command, capture_output=True, text=True, timeout=120)
if result.returncode != 0 or not os.path.exists(output):
    sys.exit("error: chromium failed (exit %d):\n%s" %
             (result.returncode, result.stderr))

image = matplotlib.image.imread(output)
pixels = (image[:, :, :3] * 255).round().astype(int)
codes = pixels[:, :, 0] * 65536 + pixels[:, :, 1] * 256 + pixels[:, :, 2]
print(f"screenshot {image.shape[1]}x{image.shape[0]}")
for check in sys.argv[4:]:
    match = re.fullmatch(r"#([0-9a-f]{6})(>=|==)(\d+)", check)
    if not match:
        sys.exit("error: bad check " + check)
    colour, relation, expected = match.group(1), match.group(2), int(match.group(3))
    found = int((codes == int(colour, 16)).sum())
    good = found >= expected if relation == ">=" else found == expected
    print(f"#{colour}: " + ("ok" if good else f"{found} pixels, expected {relation} {expected}"))
