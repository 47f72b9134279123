"""`cartrender preview` in a real browser: the served page shows the first render, a save (of the
scene or of an image it names) shows up without a reload, a broken save shows where it is broken
over the last good frames, Ctrl-C leaves nothing behind, and an idle preview sleeps."""

import json
import os
import pathlib
import re
import shutil
import signal
import struct
import subprocess
import time
import urllib.error
import urllib.request
import zlib

import pytest

from conftest import CARTRENDER, ROOT, cartrender, served_page

# A short timeline: 10 fps keeps the debug build's renders quick.
OPTIONS = ["--fps", "10"]
TIMEOUT = 60_000  # ms: correctness, not latency (Benchmarks/preview-latency.sh measures that)


class Preview:
    """A running `cartrender preview` of a copy of Examples/png-image.json, with its own TMPDIR."""

    def __init__(self, tmp_path, *args):
        self.folder = tmp_path / "scene"
        if not self.folder.exists():
            self.folder.mkdir()
            shutil.copy(ROOT / "Examples" / "png-image.json", self.folder / "shop.json")
            shutil.copytree(ROOT / "Examples" / "images", self.folder / "images")
        self.scene = self.folder / "shop.json"
        self.original = self.scene.read_text()
        self.tmpdir = tmp_path / "tmp"
        self.tmpdir.mkdir(exist_ok=True)
        self.process = subprocess.Popen(
            [str(CARTRENDER), "preview", "shop.json", *OPTIONS, *map(str, args)], cwd=self.folder,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, TMPDIR=str(self.tmpdir)),
            # A test runner started in the background has SIGINT ignored; the preview must see it.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            self.process.kill()
            pytest.fail(f"preview printed no address: {self.url!r} {self.process.stderr.read()}")
        self.origin = self.url.split("/?")[0]

    @property
    def private(self):
        """The folder that holds the previews' private directories."""
        return self.tmpdir / f"cartrender-preview-{os.getuid()}"

    def save(self, text, path=None):
        """Saves as an editor does: a temporary file renamed over the old one."""
        path = path or self.scene
        temporary = path.with_name("." + path.name + ".swp")
        temporary.write_bytes(text if isinstance(text, bytes) else text.encode())
        os.replace(temporary, path)

    def stop(self, sig=signal.SIGINT):
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


@pytest.fixture
def preview(tmp_path):
    p = Preview(tmp_path)
    yield p
    if p.process.poll() is None:
        p.process.kill()
        p.process.wait()


def open_page(browser, preview, problems):
    """The preview page, with requests allowed to the preview's origin only; waits for its
    first render to show."""
    context, page = served_page(browser, preview, problems)
    page.goto(preview.url)
    page.wait_for_function("document.body.getAttribute('data-complete') === 'true'", timeout=TIMEOUT)
    viewer = viewer_frame(page)
    viewer.wait_for_function("() => { const i = document.getElementById('frame'); return /^[A-Za-z0-9_-]+-[0-9a-f]{16}\\.png$/.test(i.getAttribute('src')) && i.complete && i.naturalWidth > 0 }", timeout=TIMEOUT)
    return context, page, viewer


def viewer_frame(page):
    """The frame of the (first) viewer in the preview page."""
    page.locator("iframe").first.wait_for(state="attached", timeout=TIMEOUT)
    viewer = page.locator("iframe").first.element_handle().content_frame()
    viewer.wait_for_function("window.cartrenderViewer !== undefined", timeout=TIMEOUT)
    return viewer


# How many pixels of the shown frame are within 12 of an RGB color in every channel.
COUNT_PIXELS = """([r, g, b]) => new Promise(done => {
  const i = document.getElementById('frame');
  const draw = () => {
    const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;
    const x = c.getContext('2d'); x.drawImage(i, 0, 0);
    const d = x.getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let k = 0; k < d.length; k += 4) if (Math.abs(d[k] - r) <= 12 && Math.abs(d[k + 1] - g) <= 12 && Math.abs(d[k + 2] - b) <= 12) n++;
    done(n);
  };
  i.complete && i.naturalWidth ? draw() : i.addEventListener('load', draw, {once: true});
})"""


def wait_generation(page, n):
    page.wait_for_function(f"Number(document.body.getAttribute('data-generation')) >= {n} && document.body.getAttribute('data-complete') === 'true'",
                           timeout=TIMEOUT)


def png(width, height, rgb):
    """A PNG of one opaque color."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_a_save_with_a_new_tint_shows_without_a_reload(browser, preview):
    problems = []
    context, page, viewer = open_page(browser, preview, problems)
    viewer.evaluate("cartrenderViewer.seek(2)")
    time_shown = viewer.locator("#frame-time").inner_text()
    assert time_shown == "2.000"
    page.evaluate("window.previewMarker = 'kept'")
    viewer.evaluate("window.viewerMarker = 'kept'")
    green = [0, 160, 0]
    assert viewer.evaluate(COUNT_PIXELS, green) == 0
    before = viewer.locator("#frame").get_attribute("src")

    preview.save(preview.original.replace('"tint": "#E4572E"', '"tint": "#00A000"'))
    wait_generation(page, 2)
    viewer.wait_for_function(f"document.getElementById('frame').getAttribute('src') !== {json.dumps(before)}", timeout=TIMEOUT)
    assert viewer.evaluate(COUNT_PIXELS, green) > 100, "the new tint shows"
    assert viewer.locator("#frame-time").inner_text() == time_shown, "the time shown is kept"
    assert page.evaluate("window.previewMarker") == "kept", "the page did not reload"
    assert viewer.evaluate("window.viewerMarker") == "kept", "the viewer did not reload"
    context.close()
    assert preview.stop() == 130
    assert problems == []


def test_changing_a_referenced_png_updates_the_page(browser, preview):
    problems = []
    context, page, viewer = open_page(browser, preview, problems)
    magenta = [255, 0, 255]
    assert viewer.evaluate(COUNT_PIXELS, magenta) == 0
    preview.save(png(64, 64, magenta), preview.folder / "images" / "sneaker.png")
    wait_generation(page, 2)
    viewer.wait_for_function("document.getElementById('frame').complete", timeout=TIMEOUT)
    page.wait_for_timeout(200)
    assert viewer.evaluate(COUNT_PIXELS, magenta) > 100, "the new image shows"
    context.close()
    assert preview.stop() == 130
    assert problems == []


def test_a_broken_save_shows_line_and_column_over_the_last_frames_and_a_fix_clears_it(browser, preview, tmp_path):
    problems = []
    context, page, viewer = open_page(browser, preview, problems)
    shown = viewer.locator("#frame").get_attribute("src")
    broken = preview.original.replace('"tint": "#E4572E",', '"tint": "#E4572E",\n  "tnit": 1,')
    # The sentence the command line prints for the same file.
    (tmp_path / "broken.json").write_text(broken)
    expected = cartrender("render", tmp_path / "broken.json", "--out", tmp_path / "out", check=False).stderr
    where = re.search(r"broken\.json:(\d+):(\d+): ", expected)
    assert where, expected
    line, column = where.groups()

    preview.save(broken)
    page.locator("#errors").wait_for(state="visible", timeout=TIMEOUT)
    item = page.locator("#error-list li").first
    assert item.locator("code.where").inner_text() == f"shop.json:{line}:{column}"
    assert f"line {line}, column {column}" in item.inner_text()
    assert "tnit" in item.inner_text()
    assert viewer.locator("#frame").get_attribute("src") == shown, "the last good frames stay"
    assert viewer.evaluate("document.getElementById('frame').naturalWidth") > 0

    preview.save(preview.original)
    page.locator("#errors").wait_for(state="hidden", timeout=TIMEOUT)
    wait_generation(page, 3)
    assert page.locator("#status").inner_text() == "up to date · render 3"
    context.close()
    assert preview.stop() == 130
    assert problems == []


def test_requests_without_the_token_or_with_another_host_are_refused_and_a_taken_port_is_unavailable(preview):
    port = preview.origin.rsplit(":", 1)[1]
    for url, headers in [(preview.origin + "/", {}), (preview.origin + "/events", {}),
                         (preview.url, {"Host": "tunnel.example:" + port}),
                         (preview.url, {"Host": "localhost:1"})]:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)
        assert refused.value.code == 403
    # localhost at the preview's port is answered, as 127.0.0.1 is (review's rule).
    with urllib.request.urlopen(urllib.request.Request(preview.url, headers={"Host": "localhost:" + port}), timeout=10) as answered:
        assert answered.status == 200
    # A second preview at the same port: unavailable (69), one sentence.
    taken = cartrender("preview", preview.scene, "--port", port, check=False, env={"TMPDIR": str(preview.tmpdir)})
    assert taken.returncode == 69
    assert taken.stderr == f"cartrender: cannot listen on 127.0.0.1:{port} (bind: Address already in use): choose another --port, or leave it out for a free one\n"
    assert preview.stop() == 130


def test_ctrl_c_exits_130_and_leaves_nothing_beside_the_scene(preview, tmp_path):
    beside = sorted(p.name for p in preview.folder.rglob("*"))
    staging = list(preview.private.iterdir())
    assert len(staging) == 1 and staging[0].name.startswith(".cartrender-staging-")
    assert any(staging[0].glob("frame-*.png"))
    assert preview.stop() == 130
    assert "stopped by SIGINT" in preview.process.stderr.read()
    assert sorted(p.name for p in preview.folder.rglob("*")) == beside
    assert list(preview.private.iterdir()) == []

    # After a SIGKILL the directory stays, and the next preview removes it.
    killed = Preview(tmp_path)
    left = list(killed.private.iterdir())
    killed.process.kill()
    killed.process.wait()
    assert [p.name for p in killed.private.iterdir()] == [p.name for p in left]
    again = Preview(tmp_path)
    assert left[0].name not in [p.name for p in again.private.iterdir()]
    assert again.stop() == 130
    assert list(again.private.iterdir()) == []
    assert sorted(p.name for p in preview.folder.rglob("*")) == beside


def test_an_idle_preview_stays_near_idle(browser, preview):
    problems = []
    context, page, viewer = open_page(browser, preview, problems)
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu():
        fields = pathlib.Path(f"/proc/{preview.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime (s)

    start, clock = cpu(), time.monotonic()
    time.sleep(10)
    used = (cpu() - start) / (time.monotonic() - clock)
    assert used < 0.01, f"an idle preview used {used:.1%} of a core"
    context.close()
    assert preview.stop() == 130
    assert problems == []


def test_variants_show_side_by_side_in_step_and_each_updates(browser, tmp_path):
    folder = tmp_path / "scene"
    folder.mkdir()
    shutil.copytree(ROOT / "Examples" / "images", folder / "images")
    scene = json.loads((ROOT / "Examples" / "png-image.json").read_text())
    scene["variants"] = {"colorScheme": ["light", "dark"]}
    (folder / "shop.json").write_text(json.dumps(scene, indent=2))
    preview = Preview(tmp_path)
    try:
        problems = []
        context, page, _ = open_page(browser, preview, problems)
        frames = page.locator("iframe")
        assert [frames.nth(i).get_attribute("data-variant") for i in range(frames.count())] == ["light", "dark"]
        light, dark = (frames.nth(i).element_handle().content_frame() for i in range(2))
        for viewer in (light, dark):
            viewer.wait_for_function("window.cartrenderViewer !== undefined && document.getElementById('frame').naturalWidth > 0", timeout=TIMEOUT)
        light.evaluate("cartrenderViewer.seek(1.5)")
        dark.wait_for_function("document.getElementById('frame-time').textContent === '1.500'", timeout=TIMEOUT)
        assert light.locator("#frame").get_attribute("src") != dark.locator("#frame").get_attribute("src")

        green = [0, 160, 0]
        scene["tint"] = "#00A000"
        preview.save(json.dumps(scene, indent=2))
        wait_generation(page, 2)
        for viewer in (light, dark):
            viewer.wait_for_function("document.getElementById('frame').complete", timeout=TIMEOUT)
            page.wait_for_timeout(200)
            assert viewer.evaluate(COUNT_PIXELS, green) > 100, "each variant shows the new tint"
            assert viewer.locator("#frame-time").inner_text() == "1.500"
        context.close()
        assert preview.stop() == 130
        assert problems == []
    finally:
        if preview.process.poll() is None:
            preview.process.kill()
