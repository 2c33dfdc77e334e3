"""Prints the DOM of a page after its scripts ran, from headless Chromium.

dumpdom.py PAGE_URL PROFILE_DIR. Fails with a message when Chromium is
missing.
"""
import shutil
import subprocess
import sys

browser = shutil.which("chromium")
if browser is None:
    sys.exit("error: chromium is not installed; the HTML report test needs "
             "Debian's chromium package (scripts/install-deps.sh installs it)")
result = subprocess.run(
    [browser, "--headless", "--no-sandbox", "--disable-gpu",
     "--user-data-dir=" + sys.argv[2], "--dump-dom", sys.argv[1]],
    capture_output=True, text=True, timeout=120)
if result.returncode != 0:
    sys.exit("error: chromium failed (exit %d):\n%s" %
             (result.returncode, result.stderr))
# One element per line, so that FileCheck can match them.
print(result.stdout.replace("><", ">\n<"))
