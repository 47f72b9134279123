"""A variant matrix's junit.xml read by junitparser (PyPI, pinned in the Makefile), as CI
reporters read and merge JUnit files: every case stays apart and the failure stays."""

import shutil

from junitparser import Failure, JUnitXml

from conftest import cartrender


def test_a_matrix_junit_merges_without_losing_the_failure(tmp_path):
    scene = tmp_path / "matrix.json"
    scene.write_text('{"screen": "shop", "fps": 4, "duration": 0.5, "events": [{"at": 0.25, "tap": "add"}],'
                     ' "variants": {"colorScheme": ["light", "dark"], "locale": ["en_US", "ar_SA"]}}')
    args = ["verify", scene, "--baseline", tmp_path / "snaps", "--scale", "1", "--quiet", "--report", tmp_path / "report"]
    cartrender(*args, "--record", "missing")
    # The dark-ar_SA baseline holds one light frame: one case fails.
    shutil.copy(tmp_path / "snaps" / "light-ar_SA" / "frame_0001.png", tmp_path / "snaps" / "dark-ar_SA" / "frame_0001.png")
    done = cartrender(*args, "--record", "never", check=False)
    assert done.returncode == 1, done.stdout + done.stderr

    matrix = JUnitXml.fromfile(str(tmp_path / "report" / "junit.xml"))
    suites = list(matrix)
    assert [s.name for s in suites] == [f"cartrender verify {scene}[{v}]"
                                        for v in ("light-en_US", "light-ar_SA", "dark-en_US", "dark-ar_SA")]
    # Merged as GitLab and test-reporter do: one suite set, cases keyed by class and name.
    merged = JUnitXml()
    for path in sorted((tmp_path / "report").glob("*/junit.xml")):
        merged += JUnitXml.fromfile(str(path))
    for xml in (matrix, merged):
        cases = [c for s in xml for c in s]
        assert len(cases) == 12
        assert len({(c.classname, c.name) for c in cases}) == 12, "no two cases collapse"
        assert len({c.name for c in cases}) == 12, "test names unique across the file"
        failed = [(c.classname, c.name) for c in cases if any(isinstance(r, Failure) for r in c.result)]
        assert failed == [("cartrender.verify.matrix[dark-ar_SA]", "frame_0001.png [dark-ar_SA] (t=0.25 s)")]
