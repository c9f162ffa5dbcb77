"""The release workflow (.github/workflows/release.yml) cannot run here: check what it would do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "release.yml"


def load() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def steps_of(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job["steps"])


def runs(job: dict[str, Any]) -> str:
    return "\n".join(str(s.get("run", "")) for s in steps_of(job))


def test_it_runs_on_tags_and_builds_on_three_systems() -> None:
    data = load()
    on = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "v*" in on["push"]["tags"]
    build = data["jobs"]["build"]
    assert build["runs-on"] == "${{ matrix.os }}"
    oses = build["strategy"]["matrix"]["os"]
    assert {o.split("-")[0] for o in oses} == {"ubuntu", "windows", "macos"}


def test_the_build_job_sets_up_python_installs_builds_and_selftests() -> None:
    build = load()["jobs"]["build"]
    uses = [s.get("uses", "") for s in steps_of(build)]
    assert any(u.startswith("actions/checkout@") for u in uses)
    setup = next(s for s in steps_of(build) if s.get("uses", "").startswith("actions/setup-python@"))
    assert str(setup["with"]["python-version"]) == "3.11"
    text = runs(build)
    assert 'pip install -e ".[build]"' in text or "pip install -e '.[build]'" in text
    assert "python build/build.py" in text
    assert text.count("--selftest") >= 3  # Linux, Windows and macOS each run the frozen program
    for step in steps_of(build):
        if "--selftest" in str(step.get("run", "")):
            assert step.get("if"), "each self-test step is for one system"
            assert step["env"]["SDL_VIDEODRIVER"] == "dummy"
    iss_order = [i for i, s in enumerate(steps_of(build)) if "innosetup" in str(s.get("run", ""))]
    build_order = [i for i, s in enumerate(steps_of(build)) if "build/build.py" in str(s.get("run", ""))]
    assert iss_order and iss_order[0] < build_order[0], "Inno Setup is there before the build needs it"


def test_installers_are_uploaded_and_attached_to_a_tag_release() -> None:
    jobs = load()["jobs"]
    upload = next(s for s in steps_of(jobs["build"]) if s.get("uses", "").startswith("actions/upload-artifact@"))
    for pattern in ("*.deb", "*.tar.gz", "*.exe", "*.dmg"):
        assert f"dist/{pattern}" in upload["with"]["path"]
    release = jobs["release"]
    assert release["needs"] == "build"
    assert "refs/tags/v" in release["if"]
    assert release["permissions"]["contents"] == "write"
    uses = [s.get("uses", "") for s in steps_of(release)]
    assert any(u.startswith("actions/download-artifact@") for u in uses)
    attach = next(s for s in steps_of(release) if s.get("uses", "").startswith("softprops/action-gh-release@"))
    assert attach["with"]["files"]
