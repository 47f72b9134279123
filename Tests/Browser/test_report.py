"""The verify report (index.html of a report directory) in a real browser."""

from conftest import cartrender, file_url


def failing_report(tmp_path):
    """A report with failures: a baseline of frames 0-3 at scale 1 recorded in light mode, verified
    in dark (the debug build's pixelmatch takes about a second a frame there)."""
    baseline = tmp_path / "baseline"
    report = tmp_path / "report"
    cartrender("verify", "--baseline", baseline, "--frames", "0-3", "--scale", "1", "--record", "all",
               "--report", tmp_path / "first", "--quiet")
    done = cartrender("verify", "--baseline", baseline, "--frames", "0-3", "--scale", "1", "--record", "never",
                      "--color-scheme", "dark", "--report", report, "--quiet", check=False)
    assert done.returncode == 1, done.stderr
    return report / "index.html"


def test_report_images_load_and_keys_step(tmp_path, page):
    page.goto(file_url(failing_report(tmp_path)))
    current = page.locator("section.frame.current")
    assert current.get_attribute("id") == "frame_0000"
    for img in current.locator(".panels img").all():
        assert img.evaluate("i => i.complete && i.naturalWidth > 0"), img.get_attribute("src")
    page.keyboard.press("ArrowRight")
    assert page.locator("section.frame.current").get_attribute("id") == "frame_0001"
