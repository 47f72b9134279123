"""The animated SVG (`-o NAME.svg`) in headless Chromium: paused at frame times of both screens
(and the cart page with emoji, the shop with a widening badge) through the Web Animations API, it looks like the PNG frame of that time (mean SSIM of luma,
11-px Gaussian windows as ImageSimilarity.meanSSIM, at least 0.97 at 1x); so does a timeline no
scene makes, written by a Swift test (a resized continuous-corner shape and clip, whose geometry
is animated as `d: path(…)`); it plays inside an <img>; with reduced motion it shows the last frame.

Screenshots of every compared frame go to .build/animated-svg-shots/ (svg-NNNN.png beside the
PNG frame) for a person to look at.
"""

import base64
import pathlib

import pytest

from conftest import ROOT, cartrender, file_url

SHOTS = ROOT / ".build" / "animated-svg-shots"

# Frames of the default scene (fly button, 60 fps): the flight leaving, mid-air and landing, the
# badge bumping with its digits rolling, the settled end. Of the cart page: the swipe, the delete,
# the rows closing up, the stepper, the total's transition and the end. The cart page with emoji
# (colour glyphs, drawn as images) in its title, a name and a detail, a stepper tapped. The shop
# whose badge grows from 998 to 1,000 and more: its capsule and the capsule's clip widen (geometry
# animated by CSS keyframes).
SCENES = {
    "shop": (None, [0, 20, 38, 50, 62, 75, 90, 110, 150, 197]),
    "cart": (ROOT / "Examples" / "cart-swipe.json", None),
    "emoji": (ROOT / "Examples" / "cart-emoji.json", None),
    "thousands": (ROOT / "Examples" / "thousands.json", None),
}

# Regions compared alone (px at 1x: x, y, width, height) with their least SSIM, so that a small
# part drawn wrong is not lost in the whole frame's mean: the shop's badge, digits included; the
# cart page's emoji (the title's cart, the joystick, the gift). An emoji is an image drawn at 4 px
# per pt, which the browser scales down where Cairo scaled Noto's bitmap: 0.94-0.95 measured, where
# the emoji left out or traced in the text's colour score far lower.
REGIONS = {
    "shop": {"badge": ([326, 56, 56, 44], 0.97)},
    "thousands": {"badge": ([318, 56, 64, 44], 0.97)},
    "emoji": {"🛒": ([156, 76, 42, 38], 0.9), "🕹️": ([157, 164, 30, 30], 0.9), "🎁": ([192, 200, 32, 30], 0.9)},
}

SSIM_JS = """
async ([a, b, crop]) => {
  async function pixels(src) {
    const img = new Image(); img.src = src; await img.decode();
    const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0);
    const [x, y, w, h] = crop || [0, 0, c.width, c.height];
    return g.getImageData(x, y, w, h);
  }
  const x = await pixels(a), y = await pixels(b);
  if (x.width !== y.width || x.height !== y.height) return [-1, x.width, x.height, y.width, y.height];
  const w = x.width, h = x.height, n = w * h;
  function luma(d) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const al = d.data[4*i+3] / 255;
      out[i] = (0.299*d.data[4*i] + 0.587*d.data[4*i+1] + 0.114*d.data[4*i+2]) * al + 255 * (1 - al);
    }
    return out;
  }
  const lx = luma(x), ly = luma(y);
  const size = 11, sigma = 1.5, k = [];
  let sum = 0;
  for (let i = 0; i < size; i++) { const d = i - 5; k.push(Math.exp(-d*d/(2*sigma*sigma))); sum += k[i]; }
  for (let i = 0; i < size; i++) k[i] /= sum;
  const ow = w - size + 1, oh = h - size + 1;
  const planes = [lx, ly, null, null, null];
  const src = [(i) => lx[i], (i) => ly[i], (i) => lx[i]*lx[i], (i) => ly[i]*ly[i], (i) => lx[i]*ly[i]];
  const hsum = src.map(() => new Float64Array(ow * h));
  for (let p = 0; p < 5; p++) for (let r = 0; r < h; r++) for (let c = 0; c < ow; c++) {
    let s = 0; for (let t = 0; t < size; t++) s += k[t] * src[p](r*w + c + t);
    hsum[p][r*ow + c] = s;
  }
  const c1 = (0.01*255)**2, c2 = (0.03*255)**2;
  let total = 0;
  for (let r = 0; r < oh; r++) for (let c = 0; c < ow; c++) {
    const v = [0, 0, 0, 0, 0];
    for (let p = 0; p < 5; p++) { let s = 0; for (let t = 0; t < size; t++) s += k[t] * hsum[p][(r+t)*ow + c]; v[p] = s; }
    const [mx, my, exx, eyy, exy] = v;
    const vx = exx - mx*mx, vy = eyy - my*my, cxy = exy - mx*my;
    total += ((2*mx*my + c1) * (2*cxy + c2)) / ((mx*mx + my*my + c1) * (vx + vy + c2));
  }
  return [total / (ow * oh)];
}
"""


def data_url(path):
    return "data:image/png;base64," + base64.b64encode(pathlib.Path(path).read_bytes()).decode()


def render(tmp_path, scene, name, *extra):
    args = ([scene] if scene else []) + ["--scale", "1", "--fps", "60", *extra]
    svg = tmp_path / f"{name}.svg"
    cartrender(*args, "-o", svg)
    frames = tmp_path / f"{name}-frames"
    cartrender(*args, "--out", f"{frames}/", "--format", "png")
    return svg, frames


def pause_at(page, ms):
    page.evaluate("ms => { for (const a of document.getAnimations()) { a.pause(); a.currentTime = ms; } }", ms)


@pytest.mark.parametrize("screen", sorted(SCENES))
def test_paused_frames_match_the_png_frames(browser, tmp_path, screen):
    scene, picks = SCENES[screen]
    svg, frames = render(tmp_path, scene, screen)
    pngs = sorted(frames.glob("frame_*.png"))
    count = len(pngs)
    if picks is None:
        picks = sorted({round(count * f) for f in (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)} | {count - 1})
    context = browser.new_context(viewport={"width": 393, "height": 852}, device_scale_factor=1)
    page = context.new_page()
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file://", "data:")) else r.abort())
    page.goto(file_url(svg))
    assert page.evaluate("document.getAnimations().length") > 0, "the SVG has no running animations"
    SHOTS.mkdir(parents=True, exist_ok=True)
    scores, parts = {}, {}
    for index in picks:
        pause_at(page, index * 1000 / 60)
        shot = SHOTS / f"{screen}-svg-{index:04d}.png"
        page.screenshot(path=str(shot))
        (SHOTS / f"{screen}-png-{index:04d}.png").write_bytes(pngs[index].read_bytes())
        compare = browser.new_page()
        scores[index] = compare.evaluate(SSIM_JS, [data_url(shot), data_url(pngs[index]), None])[0]
        for part, (crop, least) in REGIONS.get(screen, {}).items():
            parts[f"{part} {index}"] = (compare.evaluate(SSIM_JS, [data_url(shot), data_url(pngs[index]), crop])[0], least)
        compare.close()
    context.close()
    low = {i: round(s, 4) for i, s in scores.items() if s < 0.97}
    assert low == {}, f"{screen}: frames whose SSIM is below 0.97: {low} (all: {scores})"
    low = {i: (round(s, 4), least) for i, (s, least) in parts.items() if s < least}
    assert low == {}, f"{screen}: regions whose SSIM is below its least (SSIM, least): {low} (all: {parts})"
    print(screen, "SSIM:", {i: round(s, 4) for i, s in scores.items()}, {i: round(s, 4) for i, (s, _) in parts.items()})


def test_it_plays_inside_an_img(page, tmp_path):
    svg = tmp_path / "fly.svg"
    cartrender("--scale", "1", "--fps", "20", "-o", svg)
    html = tmp_path / "page.html"
    html.write_text(f'<!doctype html><body style="margin:0"><img id="i" src="{svg.name}" width="393" height="852"></body>')
    page.set_viewport_size({"width": 393, "height": 852})
    page.goto(file_url(html))
    page.wait_for_function("document.getElementById('i').complete")
    # The flight starts after the first second: the image changes while it plays.
    first = page.screenshot()
    page.wait_for_timeout(1500)
    later = page.screenshot()
    assert first != later, "the SVG in an <img> did not animate"


def test_reduced_motion_shows_the_last_frame(browser, tmp_path):
    svg, frames = render(tmp_path, None, "fly")
    last = sorted(frames.glob("frame_*.png"))[-1]
    context = browser.new_context(viewport={"width": 393, "height": 852}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(file_url(svg))
    assert page.evaluate("document.getAnimations().length") == 0
    shot = tmp_path / "reduced.png"
    page.screenshot(path=str(shot))
    score = browser.new_page().evaluate(SSIM_JS, [data_url(shot), data_url(last), None])[0]
    context.close()
    assert score >= 0.97, f"with reduced motion the SVG is not the last frame (SSIM {score})"


# A timeline no example scene makes, written by the Swift test
# AnimatedSVGEncoderTests.testTheResizedContinuousCornersTimelineForTheBrowser: a continuous-corner
# rectangle that widens and a group clipped by one that grows taller (their geometry animated as
# `d: path(…)` keyframes), 6 frames at 10 fps, 200×100 pt, beside FrameRasterizer's PNG frames.
SYNTHETIC = ROOT / ".build" / "animated-svg-synthetic"


def test_resized_continuous_corners_match_the_png_frames(browser):
    svg = SYNTHETIC / "animation.svg"
    if not svg.exists():
        pytest.skip(f"no {svg}: the Swift test AnimatedSVGEncoderTests writes it (`swift test --filter AnimatedSVGEncoderTests`)")
    pngs = sorted(SYNTHETIC.glob("frame_*.png"))
    assert len(pngs) == 6
    context = browser.new_context(viewport={"width": 200, "height": 100}, device_scale_factor=1)
    page = context.new_page()
    page.goto(file_url(svg))
    assert page.evaluate("document.getAnimations().length") > 0, "the SVG has no running animations"
    SHOTS.mkdir(parents=True, exist_ok=True)
    scores = {}
    for index, png in enumerate(pngs):
        pause_at(page, index * 1000 / 10)
        shot = SHOTS / f"squircle-svg-{index:04d}.png"
        page.screenshot(path=str(shot))
        (SHOTS / f"squircle-png-{index:04d}.png").write_bytes(png.read_bytes())
        compare = browser.new_page()
        # Against its own frame, and against the last frame: a geometry that did not animate
        # shows the last frame's (the attributes') at every time.
        scores[index] = tuple(compare.evaluate(SSIM_JS, [data_url(shot), data_url(p), None])[0] for p in (png, pngs[-1]))
        compare.close()
    context.close()
    low = {i: round(s, 4) for i, (s, _) in scores.items() if s < 0.97}
    assert low == {}, f"frames whose SSIM is below 0.97: {low} (all: {scores})"
    closer = {i: (round(s, 4), round(last, 4)) for i, (s, last) in scores.items() if i < len(pngs) - 1 and s <= last}
    assert closer == {}, f"frames closer to the last frame than to their own (SSIM own, last): {closer}"
    print("squircle SSIM:", {i: round(s, 4) for i, (s, _) in scores.items()})
