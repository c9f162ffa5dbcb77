"""CI (.ci/run) runs the documented commands: the test line of the README's "Set up" and the build line
of "Installers" in docs/architecture.md, word for word, so that what the docs promise is what CI proves."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def commands_of(section: str, page: str = README) -> list[str]:
    """The commands in the first ```sh block of a page's section, without their trailing comments."""
    body = page.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", body, re.DOTALL)
    assert block is not None, section
    return [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]


def test_ci_runs_the_readme_s_test_command_and_build_command_as_written() -> None:
    _play, tests = commands_of("Set up")
    [build] = commands_of("Installers", ARCHITECTURE)
    assert tests.endswith("-m pytest") and "'.[test]'" in tests
    assert tests in CI and build in CI
    assert CI.index(tests) < CI.index(build)


def test_the_set_up_commands_never_install_into_the_system_python() -> None:
    play, tests = commands_of("Set up")
    [build] = commands_of("Installers", ARCHITECTURE)
    envs = []
    for command in (play, tests, build):
        steps = [s.strip() for s in command.split("&&")]
        env = steps[0].removeprefix("python3 -m venv ")
        assert steps[0] == f"python3 -m venv {env}" and env.startswith(".venv"), command
        assert all(s.startswith(f"{env}/bin/") for s in steps[1:]), command
        envs.append(env)
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert all(f"/{env}/" in ignored for env in envs), envs


def test_the_tests_and_the_build_never_reinstall_the_game_being_played() -> None:
    """`pip install -e` into the environment a game runs from would swap its installed copy for the
    source folder's under a running game: each line has an environment of its own."""
    envs = [c.split("&&")[0].split()[-1] for c in (*commands_of("Set up"), *commands_of("Installers", ARCHITECTURE))]
    assert len(set(envs)) == 3, envs


def test_plain_pytest_collects_this_folder() -> None:
    """pytest skips folders named "build" unless told otherwise: these tests ran only when named."""
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "tests" in options["testpaths"]
    assert "norecursedirs" in options and "build" not in options["norecursedirs"]


def test_ci_checks_the_style_and_the_types_of_the_whole_package() -> None:
    checks = [line for line in CI if not line.lstrip().startswith("#")]
    assert ".venv-test/bin/python -m ruff check ." in checks
    assert ".venv-test/bin/python -m ruff format --check ." in checks
    assert ".venv-test/bin/python -m mypy --strict cribtiles" in checks
