"""Headless Chromium screenshots of shop.html on a virtual clock, the way Remotion renders a web
page: for frame i every CSS animation is paused and set to i / fps s, then the page is captured.
Usage: chromium-frames.py OUTDIR FRAMES FPS   (Debian's chromium through Playwright)."""
import pathlib, sys
from playwright.sync_api import sync_playwright

out, frames, fps = pathlib.Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
out.mkdir(parents=True, exist_ok=True)
page_url = (pathlib.Path(__file__).parent / "shop.html").resolve().as_uri()
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 393, "height": 852}, device_scale_factor=3)
    page.goto(page_url)
    page.evaluate("document.getAnimations().forEach(a => a.pause())")
    for i in range(frames):
        page.evaluate(f"document.getAnimations().forEach(a => a.currentTime = {i * 1000 / fps})")
        page.screenshot(path=str(out / f"frame_{i:04d}.png"))
    browser.close()
