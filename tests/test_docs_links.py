"""The README and the pages in docs/ hold together: every relative link and image points at a file of the
repository that exists, and every `#anchor` into a markdown page names one of its headings, by GitHub's
rules for a heading's anchor. A page moved or a heading renamed fails here, not in a reader's browser."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.DOTALL | re.MULTILINE)
CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
# [text](target) and ![alt](target), the text holding at most one level of brackets, an optional "title"
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HTML = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*\"([^\"]*)\"", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
HTML_ID = re.compile(r"<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*\"([^\"]+)\"", re.IGNORECASE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto:, ws:, cribtiles:


def without_code(text: str) -> str:
    """The page without its fenced blocks and code spans, where a link is only text."""
    return CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: the heading as text (a link keeps its words, a code span its
    code), lower case, every character but letters, digits, `_`, `-` and spaces dropped, spaces to `-`.

    >>> slug("How a game is registered: `cribtiles/games.py`")
    'how-a-game-is-registered-cribtilesgamespy'
    >>> slug("A learned value (issue 33; its target of 68% is blocked)")
    'a-learned-value-issue-33-its-target-of-68-is-blocked'
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor a page offers: its headings' (a repeated one gets -1, -2, ... as on GitHub) and any
    `id` or `name` given in HTML."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(text):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found | set(HTML_ID.findall(text))


def targets(page: Path) -> list[str]:
    """Every link and image target written on the page, outside code."""
    text = without_code(page.read_text(encoding="utf-8"))
    return [*INLINE.findall(text), *REFERENCE.findall(text), *HTML.findall(text)]


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the page's relative links, one line each; none when all is well."""
    problems = []
    for target in targets(page):
        if SCHEME.match(target):
            continue  # a web address or another program's: not this repository's to check
        path_part, _, anchor = target.partition("#")
        path_part = unquote(path_part.split("?", 1)[0])
        where = (page.parent / path_part).resolve() if path_part else page
        if not where.is_relative_to(root.resolve()):
            problems.append(f"{target}: outside the repository")
        elif not where.exists():
            problems.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and unquote(anchor).lower() not in anchors(where):
            problems.append(f"{target}: no heading of {where.name} has the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_and_anchor_leads_somewhere(page: Path) -> None:
    problems = broken_links(page)
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_the_pages_are_all_there_and_link_to_each_other() -> None:
    """The guide's pages exist and the README links every one of them (a page nobody links is lost)."""
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    guide = ["playing", "cribbage", "online", "coach", "safety", "architecture", "benchmarks", "rules", "protocol"]
    assert {f"docs/{n}.md" for n in guide} <= names
    readme = {t.partition("#")[0] for t in targets(ROOT / "README.md")}
    assert {f"docs/{n}.md" for n in guide} <= readme


def test_the_checker_finds_a_missing_file_a_missing_anchor_and_a_missing_image(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text(
        "# Other\n\n## Its part: `code`, *words*\n\n## Its part: `code`, *words*\n"
    )
    (tmp_path / "docs" / "pic.png").write_bytes(b"")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n\n## Here and there\n\n"
        "[fine](other.md#its-part-code-words) [the second](other.md#its-part-code-words-1) [here](#here-and-there)\n"
        "![fine](pic.png) [web](https://example.org/x.md) `[in code](nowhere.md)`\n\n"
        "```\n[in a block](nowhere.md)\n```\n\n"
        "[gone](missing.md) ![gone](screenshots/pic.png) [wrong](other.md#its-part) [wrong here](#there)\n"
        "[out](../../outside.md)\n",
        encoding="utf-8",
    )
    assert broken_links(page, tmp_path) == [
        "missing.md: no such file",
        "screenshots/pic.png: no such file",
        "other.md#its-part: no heading of other.md has the anchor #its-part",
        "#there: no heading of page.md has the anchor #there",
        "../../outside.md: outside the repository",
    ]
