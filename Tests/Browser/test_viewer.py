"""The viewer (index.html of `cartrender --viewer` / `cartrender view DIR`) in a real browser."""

import json
import time

import pytest

from conftest import ROOT, cartrender, file_url


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """The demo scene at 20 fps and scale 1 with the viewer: 67 frames, three flights."""
    out = tmp_path_factory.mktemp("shop")
    cartrender("--out", out, "--viewer", "--scale", "1", "--fps", "20", "--quiet")
    return out, json.loads((out / "manifest.json").read_text())


def js(v):
    """A number as the page writes it (JavaScript's String of a number)."""
    return str(int(v)) if v == int(v) else repr(v)


def position(page):
    return int(page.locator("#frame-index").text_content())


def frame_loaded(page, name):
    img = page.locator("#frame")
    assert img.get_attribute("src") == name
    page.wait_for_function("() => { const i = document.getElementById('frame'); return i.complete && i.naturalWidth > 0 }")


def test_scrubber_shows_the_frame_and_its_state(shop, page):
    out, manifest = shop
    page.goto(file_url(out / "index.html"))
    assert position(page) == 0
    assert page.locator("#scrubber").get_attribute("max") == str(len(manifest["frames"]) - 1)
    page.locator("#scrubber").fill("14")  # t = 0.7 s: two flights in the air
    frame = manifest["frames"][14]
    assert position(page) == 14
    assert page.locator("#frame-time").text_content() == "0.700"
    frame_loaded(page, "frame_0014.png")
    flights = frame["state"]["flights"]
    assert len(flights) == 2
    rows = page.locator("#state table tr")
    assert rows.count() == 1 + len(flights)
    for i, f in enumerate(flights):
        center = page.locator(f'#state [data-path="flights[{i}].center.x"]').text_content()
        assert center == f"x {js(f['center']['x'])}", center
        assert page.locator(f'#state [data-path="flights[{i}].progress"]').text_content() == js(f["progress"])
    assert page.locator('#state [data-path="count"]').text_content() == str(frame["state"]["count"])


def test_keys_step_and_jump(shop, page):
    out, manifest = shop
    last = len(manifest["frames"]) - 1
    page.goto(file_url(out / "index.html"))
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert position(page) == 3
    page.keyboard.press("ArrowLeft")
    assert position(page) == 2
    page.locator("#scrubber").focus()  # the range's own arrow handling must not add a second step
    page.keyboard.press("ArrowRight")
    assert position(page) == 3
    page.keyboard.press("End")
    assert position(page) == manifest["frames"][last]["index"]
    frame_loaded(page, manifest["frames"][last]["file"])
    page.keyboard.press("Home")
    assert position(page) == 0
    page.keyboard.press("ArrowLeft")
    assert position(page) == 0


def test_the_hash_opens_a_frame(shop, page):
    out, _ = shop
    page.goto(file_url(out / "index.html") + "#frame=20")
    assert position(page) == 20
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#frame=21"


def test_the_hash_turns_overlays_on_and_keeps_them(shop, page):
    out, _ = shop
    page.goto(file_url(out / "index.html") + "#frame=14&arcs&onion")
    assert position(page) == 14
    assert page.locator("#arcs").is_checked() and page.locator("#onion").is_checked()
    assert page.locator("#overlay path.arc").count() == 3
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#frame=15&arcs&onion"
    page.locator("#arcs").uncheck()
    assert page.evaluate("location.hash") == "#frame=15&onion"


def played(page, speed_id, seconds=0.8):
    """Plays from frame 0 at a speed for about `seconds`; returns (timeline seconds shown, wall seconds)."""
    page.keyboard.press("Home")
    page.locator(speed_id).check()
    start = time.monotonic()
    page.locator("#play").click()
    page.wait_for_timeout(int(seconds * 1000))
    page.locator("#play").click()
    wall = time.monotonic() - start
    assert page.locator("#play").text_content() == "Play"
    return float(page.locator("#frame-time").text_content()), wall


def test_play_at_full_and_quarter_speed(shop, page):
    out, _ = shop
    page.goto(file_url(out / "index.html"))
    full, wall = played(page, "#speed-1")
    assert 0.4 * wall <= full <= wall + 0.05, (full, wall)
    stopped = position(page)
    page.wait_for_timeout(300)
    assert position(page) == stopped, "pause stops the playback"
    quarter, wall = played(page, "#speed-quarter")
    assert 0.25 * 0.4 * wall <= quarter <= 0.25 * wall + 0.05, (quarter, wall)


def test_events_are_marked_at_the_current_frame(shop, page):
    out, manifest = shop
    page.goto(file_url(out / "index.html") + "#frame=10")  # t = 0.5 s: the second tap and launch
    items = page.locator("#events li:not(.marker)")
    assert items.count() == len(manifest["events"])
    assert page.locator("#events li.past").count() == 4
    current = page.locator("#events li.current")
    assert [li.locator(".k").text_content() for li in current.all()] == ["tap", "launch"]
    assert current.nth(1).locator(".r").text_content() == "flight 2 · destination (151.5, -222.5)"
    assert page.locator("#events li.marker").text_content() == "▶ frame 10 at 0.500 s"
    page.locator("#events li", has_text="land").first.click()  # flight 1 lands at 0.95 s: frame 19
    assert position(page) == 19
    assert page.locator('#state [data-path="count"]').text_content() == "1"


def test_arc_overlay_follows_the_flights(shop, page):
    out, manifest = shop
    page.goto(file_url(out / "index.html") + "#frame=14")
    assert page.locator("#overlay path").count() == 0
    page.locator("#arcs").check()
    arcs = page.locator("#overlay path.arc")
    assert arcs.count() == 3, "one arc per launch"
    # The arc starts where the flight starts: its center at progress 0 (frame 6, t = 0.3 s).
    start = manifest["frames"][6]["state"]["flights"][0]
    assert start["progress"] == 0
    d = arcs.first.get_attribute("d")
    assert d.startswith(f"M{js(start['center']['x'])} {js(start['center']['y'])} Q"), d
    assert page.locator("#overlay circle.center").count() == 2
    box = page.locator("#overlay").bounding_box()
    img = page.locator("#frame").bounding_box()
    assert (round(box["width"]), round(box["height"])) == (round(img["width"]), round(img["height"]))
    page.locator("#arcs").uncheck()
    assert page.locator("#overlay path").count() == 0


def test_onion_skin_shows_the_previous_frame(shop, page):
    out, _ = shop
    page.goto(file_url(out / "index.html") + "#frame=14")
    onion = page.locator("#onion-image")
    assert onion.is_hidden()
    page.locator("#onion").check()
    assert onion.is_visible()
    assert onion.get_attribute("src") == "frame_0013.png"
    page.keyboard.press("ArrowRight")
    assert onion.get_attribute("src") == "frame_0014.png"
    page.keyboard.press("Home")
    assert onion.is_hidden(), "frame 0 has no previous frame"


def test_svg_frames_and_the_cart_screen(tmp_path, page):
    cartrender(ROOT / "Examples" / "cart-swipe.json", "--out", tmp_path, "--format", "svg", "--viewer",
               "--frames", "20-24", "--scale", "1", "--quiet")
    page.goto(file_url(tmp_path / "index.html"))
    assert position(page) == 20
    frame_loaded(page, "frame_0020.svg")
    assert page.locator("#state table tr").count() == 1 + 5, "one row a cart item"
    assert page.locator("#arcs").is_disabled(), "no flights on the cart page"


def test_an_animation_only_render_shows_the_animation(tmp_path, page):
    cartrender("--out", tmp_path, "--format", "gif", "--viewer", "--frames", "0-9", "--scale", "1", "--quiet")
    page.goto(file_url(tmp_path / "index.html"))
    anim = page.locator("#animation")
    assert anim.get_attribute("src") == "animation.gif"
    page.wait_for_function("() => { const i = document.getElementById('animation'); return i.complete && i.naturalWidth > 0 }")
    assert page.locator("#frame").count() == 0
    page.keyboard.press("ArrowRight")
    assert position(page) == 1


def test_a_video_follows_the_scrubber(tmp_path, page):
    cartrender("--out", tmp_path, "--format", "webm", "--viewer", "--frames", "0-9", "--scale", "1", "--fps", "10", "--quiet")
    page.goto(file_url(tmp_path / "index.html"))
    page.wait_for_function("() => document.getElementById('animation').readyState >= 1")
    assert page.locator("#animation").get_attribute("src") == "animation.webm"
    page.locator("#scrubber").fill("4")
    assert position(page) == 4
    # The middle of frame 4's interval: 0.4 s + half a frame.
    assert abs(page.evaluate("document.getElementById('animation').currentTime") - 0.45) < 1e-3


def test_dark_mode_and_one_to_one_zoom(shop, browser, tmp_path):
    """prefers-color-scheme dark darkens the viewer; 1:1 (button or Z) shows the frame pixel for
    pixel (the device pixel ratio is 1 here) in a box panned by dragging, and Fit brings it back
    within the page — at a phone's 390 CSS px."""
    out, manifest = shop
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    page.goto(file_url(out / "index.html") + "#frame=14")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    assert page.evaluate("getComputedStyle(document.querySelector('aside')).backgroundColor") == "rgb(28, 28, 30)"
    frame_loaded(page, "frame_0014.png")
    img = page.locator("#frame")
    natural = manifest["size"]["width"]
    assert img.evaluate("i => i.naturalWidth") == natural
    assert img.evaluate("i => i.clientWidth") < natural, "fit: within the page"
    page.locator("#zoom").click()
    assert page.locator("#zoom").get_attribute("aria-pressed") == "true"
    assert img.evaluate("i => i.clientWidth") == natural
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the frame pans, not the page"
    pan = page.locator("#pan")
    assert pan.evaluate("p => p.scrollHeight > p.clientHeight"), "taller than its box: it pans"
    box = pan.bounding_box()
    page.mouse.move(box["x"] + 100, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 80, box["y"] + 100, steps=4)
    page.mouse.up()
    assert pan.evaluate("p => p.scrollTop") == 100, "dragging up by 100 px scrolls down by 100 px"
    overlay = page.locator("#overlay").bounding_box()
    shown = img.bounding_box()
    assert (round(overlay["width"]), round(overlay["height"])) == (round(shown["width"]), round(shown["height"])), \
        "the overlays keep covering the frame"
    page.keyboard.press("ArrowRight")
    frame_loaded(page, "frame_0015.png")
    assert img.evaluate("i => i.clientWidth") == natural, "stepping keeps 1:1"
    page.screenshot(path=str(tmp_path / "viewer-dark-1to1.png"))
    page.keyboard.press("z")
    assert page.locator("#zoom").get_attribute("aria-pressed") == "false"
    assert img.evaluate("i => i.clientWidth") < natural
    page.screenshot(path=str(tmp_path / "viewer-dark-fit.png"))
    context.close()


def test_a_crafted_state_cannot_run_script(shop, page, tmp_path):
    """Markup out of the page's data would run this: the viewer builds the overlay from finite
    numbers only, as attributes of elements it makes (`cartrender view` refuses such a manifest,
    so the page's data is edited here as a forger would)."""
    out, _ = shop
    html = (out / "index.html").read_text()
    start = html.index('<script type="application/json" id="viewer-data">') + len('<script type="application/json" id="viewer-data">')
    end = html.index("</script>", start)
    data = json.loads(html[start:end])
    payload = '1"/><img src=x onerror="window.pwned=1"><circle r="'
    flight = data["frames"][14]["state"]["flights"][0]
    flight["center"]["x"] = payload
    flight["id"] = payload
    crafted = json.dumps(data).replace("<", "\\u003c")
    for name in out.iterdir():
        if name.name != "index.html":
            (tmp_path / name.name).symlink_to(name)
    (tmp_path / "index.html").write_text(html[:start] + crafted + html[end:])
    page.goto(file_url(tmp_path / "index.html") + "#frame=14&arcs")
    assert page.locator("#arcs").is_checked()
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None
    assert page.locator("#overlay img").count() == 0 and page.locator("img[onerror]").count() == 0
    # The other flight of the frame, whose numbers are numbers, is still drawn.
    assert page.locator("#overlay circle.center").count() == 1
