"""`python3 build/lintian_check.py dist/cribtiles_*.deb`: Debian's checker on the .deb, held to a short list.

Runs `lintian` on the package (errors and warnings, lintian's default level) and exits 1 when it reports
any tag that build/debian/lintian-allow.txt does not allow, printing those tags. `--output FILE` checks
lintian output already written to FILE (`-` for standard input) instead of running lintian: the tests
feed it made-up output that way. Exit 0: nothing but allowed tags; 1: a tag not allowed, or a line of
lintian's output this script cannot read; 2: lintian could not be run or the allow-list is malformed.

The allow-list holds one entry a line: a tag, optionally the context it must have (`*` stands for any
text, as in `[opt/*]`), and after `#` why the tag cannot be avoided; an entry without a reason is refused.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ALLOW_LIST = Path(__file__).resolve().parent / "debian" / "lintian-allow.txt"

# `E: cribtiles: tag-name some context [path]` (a source package reads `cribtiles source:`)
_TAG_LINE = re.compile(
    r"(?P<level>[EWIPXC]): (?P<package>[^:\s]+(?: \w+)?): (?P<tag>[a-z0-9][a-z0-9+.-]*)(?: (?P<context>.*))?"
)
_QUIET_LINE = re.compile(r"(N|O|M): ")  # notes, overridden and masked tags: not findings


@dataclass(frozen=True)
class Finding:
    level: str
    tag: str
    context: str

    def __str__(self) -> str:
        return f"{self.level}: {self.tag} {self.context}".rstrip()


@dataclass(frozen=True)
class Allowance:
    tag: str
    context: str  # the finding's context, where `*` stands for any text; "*" allows every one
    reason: str

    def allows(self, finding: Finding) -> bool:
        return finding.tag == self.tag and matches(self.context, finding.context)


def matches(pattern: str, context: str) -> bool:
    """`*` in the pattern stands for any text, every other character for itself (lintian's contexts are
    full of brackets, which fnmatch would read as sets).

    >>> matches("[opt/*]", "[opt/cribtiles/cribtiles]"), matches("[opt/*]", "[usr/bin/x]")
    (True, False)
    """
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), context, re.DOTALL) is not None


def parse_allow_list(text: str) -> list[Allowance]:
    """The entries of an allow-list; a ValueError in words for a line without a reason.

    >>> for a in parse_allow_list("# why each\\ndir-or-file-in-opt  # in /opt\\nhardening-no-pie [opt/x] # loader\\n"):
    ...     print(a)
    Allowance(tag='dir-or-file-in-opt', context='*', reason='in /opt')
    Allowance(tag='hardening-no-pie', context='[opt/x]', reason='loader')
    """
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        entry, _, reason = line.partition("#")
        if not entry.strip():
            continue
        words = entry.split(maxsplit=1)
        if not reason.strip():
            raise ValueError(f"line {number}: {words[0]!r} has no reason: say after '#' why it cannot be avoided")
        entries.append(Allowance(words[0], words[1].strip() if len(words) > 1 else "*", reason.strip()))
    return entries


def parse_lintian(output: str) -> tuple[list[Finding], list[str]]:
    """The tags in lintian's output, and the lines that are neither a tag nor a note (unreadable).

    >>> parse_lintian("E: cribtiles: dir-or-file-in-opt [opt/cribtiles/]\\nN: 1 hint overridden\\n")
    ([Finding(level='E', tag='dir-or-file-in-opt', context='[opt/cribtiles/]')], [])
    """
    findings, unreadable = [], []
    for line in output.splitlines():
        if not line.strip() or _QUIET_LINE.match(line):
            continue
        m = _TAG_LINE.fullmatch(line.rstrip())
        if m is None:
            unreadable.append(line)
        else:
            findings.append(Finding(m["level"], m["tag"], m["context"] or ""))
    return findings, unreadable


def not_allowed(findings: list[Finding], allowed: list[Allowance]) -> list[Finding]:
    return [f for f in findings if not any(a.allows(f) for a in allowed)]


def unused(findings: list[Finding], allowed: list[Allowance]) -> list[Allowance]:
    return [a for a in allowed if not any(a.allows(f) for f in findings)]


def run_lintian(deb: Path) -> str:
    """lintian's report on the package at its default level (errors and warnings); exit codes of its own
    failures (it could not read the package) raise, a report with tags does not."""
    if shutil.which("lintian") is None:
        raise OSError("lintian is not installed (Debian: apt-get install lintian)")
    done = subprocess.run(
        ["lintian", "--fail-on", "none", "--tag-display-limit", "0", str(deb)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise OSError(f"lintian failed on {deb} (exit {done.returncode}): {done.stderr.strip()}")
    return done.stdout


def check(output: str, allowed: list[Allowance]) -> tuple[int, str]:
    """The exit code and the report for lintian's `output` held to the allow-list."""
    findings, unreadable = parse_lintian(output)
    bad = not_allowed(findings, allowed)
    lines = [f"lintian: {len(findings)} tags, {len(findings) - len(bad)} of them allowed"]
    for entry in unused(findings, allowed):
        lines.append(f"  note: {entry.tag} {entry.context} is allowed but was not reported (still needed?)")
    if bad:
        lines.append(f"not allowed ({len(bad)}); fix them, or allow them in {ALLOW_LIST.name} with the reason:")
        lines += [f"  {f}" for f in bad]
    if unreadable:
        lines.append("lines of lintian's output that are not tags (is this lintian's format?):")
        lines += [f"  {line}" for line in unreadable]
    return (1 if bad or unreadable else 0), "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deb", nargs="?", type=Path, help="the .deb to check")
    ap.add_argument("--output", help="lintian's output already written to this file ('-': standard input)")
    ap.add_argument("--allow", type=Path, default=ALLOW_LIST, help=f"the allow-list (default: {ALLOW_LIST.name})")
    args = ap.parse_args(argv)
    if (args.deb is None) == (args.output is None):
        ap.error("give the .deb, or --output FILE")
    try:
        allowed = parse_allow_list(args.allow.read_text(encoding="utf-8"))
        if args.output is None:
            output = run_lintian(args.deb)
        elif args.output == "-":
            output = sys.stdin.read()
        else:
            output = Path(args.output).read_text(encoding="utf-8")
    except (OSError, ValueError) as e:
        print(f"lintian_check: {e}", file=sys.stderr)
        return 2
    code, report = check(output, allowed)
    print(report)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
