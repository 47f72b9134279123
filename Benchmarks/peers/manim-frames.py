"""Manim CE's Cairo renderer drawing a scene like the default one (a card, a button, a disc that
flies to the cart, a badge), every frame written as a PNG: run by peers.sh as
`manim render -r 1179,2556 --fps 60 --format png manim-frames.py Shop`."""
from manim import *

config.background_color = "#f2f2f7"

class Shop(Scene):
    def construct(self):
        card = RoundedRectangle(corner_radius=0.3, width=7, height=9, fill_color=WHITE, fill_opacity=1, stroke_width=0)
        title = Text("Shop", weight=BOLD, color=BLACK).scale(0.9).to_corner(UL)
        name = Text("Trail backpack", color=BLACK).scale(0.6).move_to(card.get_center() + DOWN * 1.2)
        button = RoundedRectangle(corner_radius=0.2, width=6, height=0.9, fill_color="#5856d6", fill_opacity=1, stroke_width=0).move_to(card.get_bottom() + UP * 0.8)
        label = Text("Add to Cart", color=WHITE).scale(0.5).move_to(button)
        cart = Square(0.5, color="#5856d6").to_corner(UR)
        disc = Circle(0.7, fill_color="#8e8cf0", fill_opacity=1, stroke_width=0).move_to(button)
        badge = Circle(0.18, fill_color="#ff3b30", fill_opacity=1, stroke_width=0).move_to(cart.get_corner(UR)).scale(0.01)
        self.add(card, title, name, button, label, cart)
        self.wait(0.3)
        self.play(disc.animate.move_to(cart).scale(0.15), run_time=0.65)
        self.remove(disc)
        self.play(badge.animate.scale(100), run_time=0.5)
        self.wait(1.85)
