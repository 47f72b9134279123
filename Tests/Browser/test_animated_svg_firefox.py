"""The animated SVG (`-o NAME.svg`) in headless Firefox (Debian's firefox-esr), shown through
<img> as a README shows it: paused at frame times of both screens, it looks like the PNG frame of
that time (mean SSIM of luma at least 0.97 at 1x, as in Chromium: test_animated_svg.py); and
so does the resized continuous-corner timeline the Swift tests write (SYNTHETIC there).

Playwright cannot drive Debian's Firefox (it needs a patched build of its own), so Firefox is run
once with `--headless --screenshot` on one HTML page of <img> tiles, a grid of copies of the SVG
each paused at one frame's time by one added CSS rule (`animation-play-state: paused` and a
negative `animation-delay` equal to the time on every animated element: the CSS way of setting
each animation's current time). The screenshot is cut into tiles and each tile compared with its
PNG frame in Chromium (the SSIM code of test_animated_svg.py).

Skipped, with the reason, when firefox-esr is not installed (`make deps` installs it; FIREFOX
overrides the path). A second browser is an outside check, and the slowest of these tests: it runs
under CARTRENDER_FULL_SWEEPS=1, which .ci/run sets, not under a plain `make test`. The screenshot
goes to .build/animated-svg-shots/firefox-grid.png.
"""

import os
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import ROOT
from test_animated_svg import SCENES, SHOTS, SSIM_JS, SYNTHETIC, data_url, render

FIREFOX = os.environ.get("FIREFOX") or shutil.which("firefox-esr") or "/usr/bin/firefox-esr"

pytestmark = pytest.mark.skipif(os.environ.get("CARTRENDER_FULL_SWEEPS") != "1",
                                reason="Firefox is an outside check: CARTRENDER_FULL_SWEEPS=1 (.ci/run) runs it")
COLUMNS = 6

# A profile that does not look for updates, report, or check the default browser: the screenshot
# then does not wait on them.
PREFS = """
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("app.update.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("browser.safebrowsing.update.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("ui.prefersReducedMotion", 0);
"""

# The tile (x, y, width, height in px) of a screenshot cut out as a PNG data URL.
CROP_JS = """
async ([src, x, y, w, h]) => {
  const img = new Image(); img.src = src; await img.decode();
  const c = document.createElement('canvas'); c.width = w; c.height = h;
  c.getContext('2d').drawImage(img, x, y, w, h, 0, 0, w, h);
  return c.toDataURL('image/png');
}
"""


def paused_at(svg_text, ms):
    """The document with every animation paused `ms` milliseconds into its timeline."""
    rule = "[class]{animation-play-state:paused!important;animation-delay:-%.3fms!important}\n" % ms
    assert "</style>" in svg_text, "the animated SVG has no style sheet"
    return svg_text.replace("</style>", rule + "</style>", 1)


def firefox_scores(browser, tmp_path, tiles, width, height, shot_name):
    """Firefox's screenshot of the SVG tiles (`(label, frame index, svg name in tmp_path, PNG
    frame)`, each `width`×`height` px) on one grid page, each tile's SSIM against its PNG frame by
    "label index"; the screenshot is copied to SHOTS/`shot_name`."""
    rows = -(-len(tiles) // COLUMNS)
    images = "".join(f'<img src="{name}" width="{width}" height="{height}" style="display:block">' for _, _, name, _ in tiles)
    (tmp_path / "grid.html").write_text(
        '<!doctype html><html style="overflow:hidden"><body style="margin:0;background:#fff">'
        f'<div style="display:grid;grid-template-columns:repeat({COLUMNS},{width}px);line-height:0">{images}</div></body></html>')
    profile = tmp_path / "profile"
    profile.mkdir()
    (profile / "user.js").write_text(PREFS)
    shot = tmp_path / "grid.png"
    done = subprocess.run([FIREFOX, "--headless", "--no-remote", "-profile", str(profile),
                           f"--window-size={COLUMNS * width},{rows * height}",
                           "--screenshot", str(shot), (tmp_path / "grid.html").as_uri()],
                          capture_output=True, text=True, timeout=180, env=dict(os.environ, MOZ_HEADLESS="1"))
    assert shot.exists(), f"firefox-esr wrote no screenshot (exit {done.returncode}): {done.stderr}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, SHOTS / shot_name)
    page = browser.new_page()
    grid = data_url(shot)
    scores = {}
    for n, (screen, index, _, png) in enumerate(tiles):
        x, y = (n % COLUMNS) * width, (n // COLUMNS) * height
        tile = page.evaluate(CROP_JS, [grid, x, y, width, height])
        scores[f"{screen} {index}"] = page.evaluate(SSIM_JS, [tile, data_url(png), None])[0]
    page.close()
    return scores


def test_paused_frames_in_firefox_match_the_png_frames(browser, tmp_path):
    if not pathlib.Path(FIREFOX).exists():
        pytest.skip(f"firefox-esr is not installed ({FIREFOX} is missing): `apt-get install firefox-esr` "
                    "or `make deps` to test the animated SVG in Firefox")
    tiles = []  # (screen, frame index, svg name, PNG frame)
    size = None
    for screen in sorted(SCENES):
        scene, picks = SCENES[screen]
        svg, frames = render(tmp_path, scene, screen)
        text = svg.read_text()
        width, height = (round(float(v)) for v in re.search(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)"', text).groups())
        assert size in (None, (width, height)), "the two screens differ in size"
        size = (width, height)
        pngs = sorted(frames.glob("frame_*.png"))
        count = len(pngs)
        if picks is None:
            picks = sorted({round(count * f) for f in (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)} | {count - 1})
        for index in picks:
            name = f"{screen}-{index:04d}.svg"
            (tmp_path / name).write_text(paused_at(text, index * 1000 / 60))
            tiles.append((screen, index, name, pngs[index]))
    scores = firefox_scores(browser, tmp_path, tiles, *size, "firefox-grid.png")
    print("Firefox SSIM:", {k: round(s, 4) for k, s in scores.items()})
    low = {k: round(s, 4) for k, s in scores.items() if s < 0.97}
    assert low == {}, f"Firefox: frames whose SSIM is below 0.97: {low} (all: {scores})"


def test_resized_continuous_corners_in_firefox_match_the_png_frames(browser, tmp_path):
    """The timeline of a widening continuous-corner rectangle and a growing continuous-corner
    clip (`d: path(…)` keyframes) that the Swift test writes (test_animated_svg.py, SYNTHETIC)."""
    if not pathlib.Path(FIREFOX).exists():
        pytest.skip(f"firefox-esr is not installed ({FIREFOX} is missing): `apt-get install firefox-esr` "
                    "or `make deps` to test the animated SVG in Firefox")
    svg = SYNTHETIC / "animation.svg"
    if not svg.exists():
        pytest.skip(f"no {svg}: the Swift test AnimatedSVGEncoderTests writes it (`swift test --filter AnimatedSVGEncoderTests`)")
    text = svg.read_text()
    tiles = []
    for index, png in enumerate(sorted(SYNTHETIC.glob("frame_*.png"))):
        name = f"squircle-{index:04d}.svg"
        (tmp_path / name).write_text(paused_at(text, index * 1000 / 10))
        tiles.append(("squircle", index, name, png))
    assert len(tiles) == 6
    scores = firefox_scores(browser, tmp_path, tiles, 200, 100, "firefox-squircle.png")
    print("Firefox SSIM:", {k: round(s, 4) for k, s in scores.items()})
    low = {k: round(s, 4) for k, s in scores.items() if s < 0.97}
    assert low == {}, f"Firefox: frames whose SSIM is below 0.97: {low} (all: {scores})"
