"""`cartrender review` in a real browser: the served report accepts a failing frame, the baseline
file changes to the rendered frame, and a request without the run's token is refused."""

import re
import hashlib
import shutil
import signal
import subprocess
import time

import pytest

from conftest import CARTRENDER, cartrender, served_page

SCENE = ["--fps", "4", "--scale", "1", "--quiet"]


class Review:
    """A running `cartrender review` and the address it printed."""

    def __init__(self, tmp_path, *args):
        self.process = subprocess.Popen(
            [str(CARTRENDER), "review", *map(str, args)], cwd=tmp_path, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
            # A test runner started in the background has SIGINT ignored; the server must see it.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 60
        self.url = None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            if line.startswith("http://127.0.0.1:"):
                self.url = line.strip()
                break
        if self.url is None:
            self.process.kill()
            pytest.fail(f"review printed no address: {self.process.stderr.read()}")
        self.origin = self.url.split("/?")[0]

    def stop(self):
        """Ctrl-C; returns the exit status."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def adopt(directory, name):
    """Records `name`'s bytes in the directory's ownership ledger, as the recording of a changed
    render would have: cartrender replaces only files it can prove it wrote."""
    ledger = directory / ".cartrender-files.sha256"
    entries = dict(reversed(line.split("  ", 1)) for line in ledger.read_text().splitlines() if "  " in line)
    entries[name] = hashlib.sha256((directory / name).read_bytes()).hexdigest()
    ledger.write_text("".join(f"{entries[n]}  {n}\n" for n in sorted(entries)))


@pytest.fixture
def review(tmp_path):
    """A review of the default scene (4 fps, 1x, 14 frames) whose baseline frame 6 holds frame 7."""
    baseline = tmp_path / "baseline"
    cartrender("verify", "--baseline", baseline, "--record", "all", "--report", tmp_path / "first", *SCENE)
    shutil.copy(baseline / "frame_0006.png", tmp_path / "rendered_0006.png")
    shutil.copy(baseline / "frame_0007.png", baseline / "frame_0006.png")
    adopt(baseline, "frame_0006.png")
    r = Review(tmp_path, "--baseline", baseline, "--record", "never", *SCENE)
    r.baseline = baseline
    r.rendered = (tmp_path / "rendered_0006.png").read_bytes()
    yield r
    if r.process.poll() is None:
        r.process.kill()
        r.process.wait()


def test_accept_rewrites_the_baseline_frame_and_the_page_reloads(browser, review):
    problems = []
    context, page = served_page(browser, review, problems)
    page.goto(review.url)
    assert page.locator("#review-status").inner_text() == "1 frame to review"
    current = page.locator("section.frame.current")
    assert current.get_attribute("id") == "frame_0006"
    for img in current.locator(".panels img").all():
        assert img.evaluate("i => i.complete && i.naturalWidth > 0"), img.get_attribute("src")
    assert (review.baseline / "frame_0006.png").read_bytes() != review.rendered

    # A passing frame shows its thumbnail, inside the report.
    page.evaluate("location.hash = 'frame_0000'")
    passing = page.locator("section.frame#frame_0000 img").first
    passing.wait_for(state="visible")
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=passing.element_handle())
    assert re.fullmatch(r"thumb_[0-9a-f]{16}\.png", passing.get_attribute("src"))
    page.evaluate("location.hash = 'frame_0006'")

    with page.expect_navigation(timeout=60_000):
        current.locator("button.accept[data-accept='frame_0006.png']").click()
    assert page.locator("#review-status").inner_text() == "Every frame passes: nothing to accept"
    assert page.locator("button.accept").count() == 0
    assert page.locator(".verdict").inner_text() == "passed"
    assert (review.baseline / "frame_0006.png").read_bytes() == review.rendered, \
        "the baseline frame is now the rendered frame"
    context.close()
    assert review.stop() == 0
    assert problems == []


def test_requests_without_the_token_are_refused(browser, review):
    problems = []
    before = (review.baseline / "frame_0006.png").read_bytes()
    context, page = served_page(browser, review, problems)
    response = page.goto(review.origin + "/")
    assert response.status == 403
    assert page.locator("body").inner_text().strip() == \
        "refused: the request does not carry this review's token (open the address cartrender review printed)"

    # From the page itself (cookie set by the tokened address), an accept without the token
    # header is refused too.
    page.goto(review.url)
    status = page.evaluate(
        "fetch('/accept?frame=frame_0006.png', {method: 'POST'}).then(r => r.status)")
    assert status == 403
    assert (review.baseline / "frame_0006.png").read_bytes() == before
    context.close()
    assert review.stop() == 0
    assert problems == []
