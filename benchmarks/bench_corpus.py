"""How fast ``feltro replay --summary`` reads a corpus: hands per second on one core and on all.

Usage::

    python benchmarks/bench_corpus.py            # at least 100,000 hands
    python benchmarks/bench_corpus.py --quick    # 4 files (about 16,000 hands)

The corpus is built from the HandHQ sample shipped in ``tests/data/phh/handhq`` (real hands
of six sites: decimal stakes, unknown cards, returning players' posts, unknown stacks): each
file holds the whole sample ten times over, under new table names, so that a file is a
realistic unit of work (HandHQ's own files hold a few thousand hands each); as many files as
make at least 100,000 hands. Every hand is read from TOML, scaled,
replayed under ``--rules casino`` and summed up exactly as the command does
(:func:`feltro.history.corpus.run_files`); the time includes reading the files and starting
the worker processes. Both runs must give the same per-hand results, which is checked.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from feltro.history.corpus import Summary, run_files
from run import Section, machine_info, print_section, write_results

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "phh" / "handhq"
COPIES = 10  # copies of the sample per file
TARGET = 100_000  # hands in the full corpus, at least


def build_corpus(folder: Path, files: int | None) -> int:
    """Write *files* ``.phhs`` files into *folder* (``None``: enough for :data:`TARGET`
    hands); return the number of hands."""
    texts = {path.stem: path.read_text() for path in sorted(SAMPLE.glob("*.phhs"))}
    header = re.compile(r"^\[(\d+)\]$", re.MULTILINE)
    chunks = []
    hands = 0
    for copy in range(COPIES):
        for site, text in texts.items():
            chunks.append(header.sub(lambda m, s=site, c=copy: f'["{s}/{c}/{m.group(1)}"]', text))
            hands += len(header.findall(text))
    body = "\n".join(chunks)
    if files is None:
        files = -(-TARGET // hands)
    for number in range(files):
        (folder / f"corpus-{number:03}.phhs").write_text(body)
    return hands * files


def timed(files: list[Path], workers: int) -> tuple[float, Summary, str]:
    """Seconds for one whole job, its summary and a digest of every per-hand line."""
    gc.collect()
    digest = hashlib.sha256()
    summary = Summary()
    start = time.perf_counter()
    for reports in run_files(files, rules="casino", workers=workers):
        summary.add(reports)
        for report in reports:
            digest.update(report.json.encode())
    return time.perf_counter() - start, summary, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 files only")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hands = build_corpus(folder, 4 if args.quick else None)
        files = sorted(folder.glob("*.phhs"))
        count = len(files)
        one_s, one, one_digest = timed(files, 1)
        all_s, every, all_digest = timed(files, cores)
    if one_digest != all_digest or one.to_dict(timing=False) != every.to_dict(timing=False):
        sys.exit("the backends gave different results")
    counts = one.to_dict(timing=False)
    rows = [
        ("1 (in process)", f"{hands:,}", f"{one_s:.1f}", f"{hands / one_s:,.0f}"),
        (f"{cores} (processes)", f"{hands:,}", f"{all_s:.1f}", f"{hands / all_s:,.0f}"),
    ]
    section = Section(
        f"feltro replay --summary --rules casino: {count} files, {hands:,} real hands",
        ("cores", "hands", "seconds", "hands/s"), rows,
        [f"every hand replayed: {counts['replayed']:,} of {counts['hands_read']:,}; "
         f"undetermined pots {counts['undetermined_pots']:,}; winnings agree "
         f"{counts['winnings']['agree']:,}/{counts['winnings']['compared']:,}; OnGame finishing "
         f"stacks agree {counts['finishing_stacks']['agree']:,}/"
         f"{counts['finishing_stacks']['compared']:,}",
         "both runs gave the same per-hand results (SHA-256 of every JSON line)",
         "the time includes reading and parsing the files and starting the worker processes"])
    print_section(section)
    write_results("corpus", "Corpus replay (HandHQ hands)", [section], machine_info([]),
                  "python benchmarks/run.py corpus" + (" --quick" if args.quick else ""))


if __name__ == "__main__":
    main()
