"""Shared fixtures of the browser tests: the built cartrender binary, Debian's chromium driven by
Playwright, and a page that refuses every request that is not a local file.

`make test` runs these after the Swift tests (`make browser` installs Playwright and pytest in
.build/browser). CARTRENDER and CHROMIUM override the binary and browser paths.
"""

import os
import pathlib
import subprocess

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
CARTRENDER = pathlib.Path(os.environ.get("CARTRENDER", ROOT / ".build" / "debug" / "cartrender"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def cartrender(*args, cwd=None, check=True, env=None):
    """Runs the built binary; returns the CompletedProcess (text output). With `check`, a non-zero
    exit fails the test with its stderr."""
    if not CARTRENDER.exists():
        pytest.fail(f"{CARTRENDER} is missing: build it first (swift build)")
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("CI", None)
    full_env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run([str(CARTRENDER), *map(str, args)], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=300)
    if check and done.returncode != 0:
        pytest.fail(f"cartrender {' '.join(map(str, args))} exited {done.returncode}: {done.stderr}")
    return done


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


class PageProblems:
    """JavaScript errors, console errors and refused network requests seen by a page."""

    def __init__(self):
        self.errors = []
        self.requests = []

    def check(self):
        assert self.errors == [], f"page errors: {self.errors}"
        assert self.requests == [], f"requests outside file://: {self.requests}"


@pytest.fixture
def page(browser):
    """A fresh page (1280×900 CSS px) that aborts every non-file request; the test fails at the
    end when the page threw, logged a console error or tried the network."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    problems = PageProblems()

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            problems.requests.append(r.request.url)
            r.abort()

    pg.route("**/*", route)
    pg.on("pageerror", lambda e: problems.errors.append(str(e)))
    pg.on("console", lambda m: problems.errors.append(m.text) if m.type == "error" else None)
    pg.problems = problems
    yield pg
    context.close()
    problems.check()


def file_url(path):
    return pathlib.Path(path).resolve().as_uri()


def served_page(browser, server, problems):
    """A fresh page (1280×900 CSS px) whose requests may go to `server.origin` (a review's or a
    preview's `http://127.0.0.1:PORT`) only: others are aborted and added to `problems`, as are
    the page's errors. Returns the context and the page."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()

    def route(r):
        if r.request.url.startswith(server.origin + "/"):
            r.continue_()
        else:
            problems.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page
