"""Simple to read: no function of feltro is more tangled than radon's grade D (cyclomatic
complexity above 30 is E or F). A block that grows past it is split before it lands."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"


def blocks_above_d(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if cc_rank(block.complexity) in ("E", "F"):
                found.append(f"{path.relative_to(root)}:{block.lineno} {block.name} "
                             f"({block.complexity})")
    return found


def test_no_block_is_graded_above_d() -> None:
    assert blocks_above_d(SRC) == []


def test_the_check_sees_a_tangled_function(tmp_path: Path) -> None:
    body = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(40))
    (tmp_path / "tangled.py").write_text(f"def f(x):\n{body}\n    return -1\n")
    assert blocks_above_d(tmp_path) == ["tangled.py:1 f (41)"]
