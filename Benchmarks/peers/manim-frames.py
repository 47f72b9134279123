"""Manim CE's Cairo renderer drawing the scene of shop.html (the default scene's shop screen,
393×852 pt: a card with a photo, a name, a description and an "Add to Cart" button, the button
pressed at 0.30 s, a disc flying to the cart in 0.65 s, the badge bumping in 0.5 s), every frame
written as a PNG: run by peers.sh as
`manim render -r 1179,2556 --fps 60 --format png-sequence manim-frames.py Shop` (Manim CE 0.22).

3.3 s at 60 fps is 198 frames. The waits pass `frozen_frame=False`: a frozen wait writes one PNG
for its whole duration in a PNG sequence, so every frame is drawn and written, as the other peers
do. One scene unit is 100 pt; positions below are shop.html's CSS px (from the top left)."""
from manim import *

config.frame_width = 3.93
config.frame_height = 8.52
config.background_color = "#f2f2f7"
ACCENT = "#5856d6"


def at(x, y):
    """The scene point of CSS px (x, y) on the 393×852 pt screen."""
    return np.array([(x - 196.5) / 100, (426 - y) / 100, 0])


def label(text, size, **style):
    """Inter text whose em is `size` pt (its cap height is 0.727 em)."""
    cap = Text("H", font="Inter", **style).height
    return Text(text, font="Inter", **style).scale(0.727 * size / 100 / cap)


def box(left, top, width, height, radius, color):
    rect = RoundedRectangle(corner_radius=radius / 100, width=width / 100, height=height / 100,
                            fill_color=color, fill_opacity=1, stroke_width=0)
    return rect.move_to(at(left + width / 2, top + height / 2))


class Shop(Scene):
    def construct(self):
        title = label("Shop", 34, weight=BOLD, color=BLACK)
        title.move_to(at(20, 85), aligned_edge=LEFT)
        cart = box(337, 70, 36, 34, 6, ACCENT).set_fill(opacity=0).set_stroke(ACCENT, width=3)
        card = box(16, 130, 361, 560, 20, WHITE)
        photo = box(32, 146, 329, 300, 14, "#e5e5ff")
        photo.set_fill(["#e5e5ff", "#c7c7f5"], opacity=1).set_sheen_direction(DR)
        name = label("Trail backpack", 24, weight=BOLD, color=BLACK).move_to(at(36, 469), aligned_edge=LEFT)
        about = Paragraph("Twenty liters, water resistant and light", "enough for every day.",
                          font="Inter", color="#6e6e73", line_spacing=0.6)
        about.scale(0.727 * 16 / 100 / Text("H", font="Inter").height).move_to(at(36, 510), aligned_edge=LEFT)
        button = VGroup(box(32, 618, 329, 52, 14, ACCENT),
                        label("Add to Cart", 17, weight=SEMIBOLD, color=WHITE).move_to(at(196.5, 644)))
        disc = Circle(0.45, fill_color=["#e5e5ff", "#8e8cf0"], fill_opacity=1, stroke_width=0)
        disc.set_sheen_direction(DR).move_to(at(195, 665))
        badge = VGroup(Circle(0.1, fill_color="#ff3b30", fill_opacity=1, stroke_width=0),
                       label("1", 13, weight=SEMIBOLD, color=WHITE)).move_to(at(375, 70))
        self.add(card, photo, name, about, button, title, cart)
        self.wait(0.3, frozen_frame=False)

        start, bend, end = at(195, 665), at(315, 245), at(355, 87)
        button.save_state()
        disc.save_state()

        def press(mob, alpha):  # 0.3 s of the 0.65 s: 1 → 0.96 at 40 % → 1
            t = min(alpha / (0.3 / 0.65), 1)
            mob.restore().scale(1 - 0.04 * (t / 0.4 if t < 0.4 else (1 - t) / 0.6))

        def fly(mob, alpha):  # a quadratic Bézier to the cart, shrinking to 15 %
            t = smooth(alpha)
            mob.restore().scale(1 - 0.85 * t)
            mob.move_to((1 - t) ** 2 * start + 2 * t * (1 - t) * bend + t ** 2 * end)

        self.add(disc)
        self.play(UpdateFromAlphaFunc(button, press), UpdateFromAlphaFunc(disc, fly),
                  run_time=0.65, rate_func=linear)
        self.remove(disc)

        badge.save_state()

        def bump(mob, alpha):  # 0 → 1.3 at 50 % → 1
            mob.restore().scale(max(2.6 * alpha if alpha < 0.5 else 1.3 - 0.6 * (alpha - 0.5), 1e-3))

        self.play(UpdateFromAlphaFunc(badge, bump), run_time=0.5, rate_func=linear)
        self.wait(1.85, frozen_frame=False)
