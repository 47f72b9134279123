"""The verify report (index.html of a report directory) in a real browser."""

import re
import shutil

import pytest

from playwright.sync_api import expect

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


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """Frames 0-12 at scale 1, baseline recorded; frames 8 and 9 of the baseline replaced by dark
    ones, so those two fail and the other eleven pass."""
    root = tmp_path_factory.mktemp("report")
    baseline, dark = root / "baseline", root / "dark"
    args = ["--frames", "0-12", "--scale", "1", "--quiet"]
    cartrender("verify", "--baseline", baseline, "--record", "all", "--report", root / "first", *args)
    cartrender("--out", dark, "--color-scheme", "dark", *args)
    for n in (8, 9):
        shutil.copy(dark / f"frame_{n:04}.png", baseline / f"frame_{n:04}.png")
    done = cartrender("verify", "--baseline", baseline, "--record", "never", "--report", root / "report", *args, check=False)
    assert done.returncode == 1, done.stderr
    return root / "report" / "index.html"


def current(page):
    return page.locator("section.frame.current")


def visible_views(section):
    return [v for v in ("side", "slider", "blend", "toggle", "diff") if section.locator(f".view.{v}").is_visible()]


def test_the_views_switch(report, page):
    page.goto(file_url(report))
    s = current(page)
    assert s.get_attribute("id") == "frame_0008"
    assert visible_views(s) == ["side"]
    assert [c.text_content() for c in s.locator(".view.side figcaption").all()] == [
        "Expected · 393×852 px", "Actual · 393×852 px", "Diff · 393×852 px"]

    s.get_by_role("button", name="Slider").click()
    assert visible_views(s) == ["slider"]
    s.locator(".view.slider input").fill("20")
    assert "inset(0px 0px 0px 20%)" in s.locator(".view.slider img.over").evaluate("i => getComputedStyle(i).clipPath")

    s.get_by_role("button", name="Blend").click()
    assert visible_views(s) == ["blend"]
    s.locator(".view.blend input").fill("25")
    assert s.locator(".view.blend img.over").evaluate("i => getComputedStyle(i).opacity") == "0.25"
    assert s.locator(".view.blend output").text_content() == "25"

    s.get_by_role("button", name="Toggle").click()
    assert visible_views(s) == ["toggle"]
    over = s.locator(".view.toggle img.over")
    assert over.is_hidden() and s.locator(".side-shown").text_content() == "expected"
    s.locator(".view.toggle .flip").click()
    assert over.is_visible() and s.locator(".side-shown").text_content() == "actual"
    page.keyboard.press("t")
    assert over.is_hidden()

    s.get_by_role("button", name="Diff only").click()
    assert visible_views(s) == ["diff"]
    assert s.get_by_role("button", name="Diff only").get_attribute("aria-pressed") == "true"
    page.keyboard.press("ArrowRight")  # the chosen view stays for the next failing frame
    assert current(page).get_attribute("id") == "frame_0009"
    assert visible_views(current(page)) == ["diff"]
    page.keyboard.press("1")
    assert visible_views(current(page)) == ["side"]


def test_every_frame_is_reachable(report, page):
    page.goto(file_url(report))
    assert page.locator(".timeline a.cell").count() == 13
    page.locator("details.allframes summary").click()
    thumbs = page.locator("details.allframes a.thumb")
    assert thumbs.count() == 13
    thumbs.nth(3).click()
    s = current(page)
    # The page follows the link on `hashchange`, a task after the click: wait for it.
    expect(s).to_have_id("frame_0003")
    assert "matches" in s.locator(".why").text_content()
    img = s.locator("img")
    # Its thumbnail, inside the report: 393 px downscaled by 2.
    assert re.fullmatch(r"thumb_[0-9a-f]{16}\.png", img.get_attribute("src"))
    page.wait_for_function("() => { const i = document.querySelector('section.frame.current img'); return i.complete && i.naturalWidth === 196 }")
    assert s.locator("figcaption").text_content().endswith("393×852 px")
    page.keyboard.press("ArrowRight")  # from a passing frame to the next that did not pass
    assert current(page).get_attribute("id") == "frame_0008"
    page.locator(".timeline a.cell").nth(12).click()
    expect(current(page)).to_have_id("frame_0012")
    page.keyboard.press("ArrowLeft")
    assert current(page).get_attribute("id") == "frame_0009"


def all_images_loaded(page):
    """Loads every <img> of the page, lazy or in a hidden section: the sources that did not load
    (none when all did)."""
    return page.evaluate("""async () => {
        const imgs = [...document.images];
        imgs.forEach(i => { i.loading = 'eager'; });
        await Promise.all(imgs.map(i => i.complete && i.naturalWidth > 0 ? 0
            : new Promise(r => { i.onload = i.onerror = r; setTimeout(r, 10000); })));
        return imgs.filter(i => !(i.naturalWidth > 0)).map(i => i.getAttribute('src'));
    }""")


def test_an_artifact_only_copy_of_the_report_opens_whole(report, tmp_path, browser):
    """The report directory alone, copied elsewhere (as an uploaded artifact is): every image it
    shows loads, and the page asks for nothing outside that directory."""
    copy = tmp_path / "artifact" / "report"
    shutil.copytree(report.parent, copy)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    outside = []
    root = copy.resolve().as_uri() + "/"
    page.on("request", lambda r: None if r.url.startswith(root) else outside.append(r.url))
    page.goto(file_url(copy / "index.html"))
    page.locator("details.allframes summary").click()
    assert page.locator("img").count() > 13
    assert all_images_loaded(page) == []
    assert outside == []
    assert page.locator("details.allframes img").count() == 13, "a thumbnail for every frame"
    context.close()


@pytest.mark.parametrize("which", ["report", "viewer"])
def test_both_pages_fit_390_px(which, report, tmp_path, browser):
    """The report and the viewer at 390 CSS px wide (a phone): nothing wider than the viewport."""
    if which == "viewer":
        out = tmp_path / "frames"
        cartrender("--out", out, "--frames", "0-3", "--scale", "1", "--viewer", "--quiet")
        target = out / "index.html"
    else:
        target = report
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(file_url(target))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{which} is {width} px wide at 390 px"
    page.screenshot(path=str(tmp_path / f"{which}-390.png"))
    context.close()


def test_dark_mode_and_one_to_one_zoom(report, browser, tmp_path):
    """prefers-color-scheme dark darkens the page; 1:1 shows the images pixel for pixel (the
    device pixel ratio is 1 here), panned by scrolling, and Fit brings them back within the page."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    page.goto(file_url(report))
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    section = page.locator("section.frame.current")
    img = section.locator(".view.side figure.expected img")
    img.evaluate("i => i.complete ? null : new Promise(r => { i.onload = i.onerror = r })")
    natural = img.evaluate("i => i.naturalWidth")
    assert img.evaluate("i => i.clientWidth") < natural, "fit: within 390 px"
    section.locator("button.zoom").click()
    assert section.locator("button.zoom").get_attribute("aria-pressed") == "true"
    assert img.evaluate("i => i.clientWidth") == natural
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the view pans, not the page"
    page.screenshot(path=str(tmp_path / "report-dark-1to1.png"))
    section.locator("button.zoom").click()
    assert img.evaluate("i => i.clientWidth") < natural
    context.close()
